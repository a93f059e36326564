// The lint STYLE.md asks for: no floating or misused promises (type-aware, through tsconfig.json), and no line over
// 120 characters, the width prettier formats to (npm run lint runs both; prettier cannot break a long string or
// comment, this rule says where one is left). Import cycles are forbidden by test/unit/architecture.test.ts, beside
// the other room rules. Other rules stay off: this lint guards against bugs, layout is prettier's.
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist*/', 'node_modules/', 'var/'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test() and describe() return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      'max-len': ['error', { code: 120, tabWidth: 2 }],
    },
  },
);
