import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OPTIONS, envName, optionsAsMarkdown } from '../../../src/config/index.js';
import { projectRoot } from '../../helpers/paths.js';

test('docs/configuration.md holds the option table exactly as the code defines it', () => {
  const doc = readFileSync(join(projectRoot, 'docs', 'configuration.md'), 'utf8');
  assert.ok(doc.includes(optionsAsMarkdown()), 'regenerate it: qpswatch config options --markdown');
});

test('every option has a sentence of documentation and a reading of its type', () => {
  for (const option of Object.values(OPTIONS)) {
    assert.ok(option.doc.length > 10, option.name);
    assert.ok(option.expected.length > 3, option.name);
    assert.match(envName(option.name), /^QPSWATCH_[A-Z0-9_]+$/);
  }
});
