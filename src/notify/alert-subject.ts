import { BIDI_CONTROLS, formatRatio } from '../report/index.js';
import { testLabel, type TestRow } from '../model/index.js';
import type { AlertContent } from './alert-content.js';

/**
 * Data put in a header: control characters (C0, DEL, C1 and the Unicode line and paragraph separators) are removed,
 * so a tag or test name can never break the subject into two lines or add a header; so are the bidirectional
 * controls, so a subject reads in a mail list as it is (no right-to-left override turns "0.24" into "42.0").
 */
export function headerText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * e.g. "qpswatch: mariadb 10.11.3 regressed: update-index.t1 at 0.24 of 10.11.2 (+3 more)"; against the base
 * "qpswatch: mariadb 10.11.5 drifted: update-index.t1 at 0.91 of base 10.11.1".
 */
export function alertSubject(content: AlertContent, rows: readonly TestRow[]): string {
  const [worst] = rows;
  const base = content.against === 'base';
  const verb = content.kind === 'regression' ? (base ? 'drifted' : 'regressed') : 'recovered';
  const more = rows.length > 1 ? ` (+${rows.length - 1} more)` : '';
  const test = worst === undefined ? '' : `: ${testLabel(worst)} at ${formatRatio(worst.relativeQps)}`;
  return headerText(
    `qpswatch: ${content.flavor} ${content.version} ${verb}${test} of ` +
      `${base ? 'base ' : ''}${content.comparedWith.version}${more}`,
  );
}
