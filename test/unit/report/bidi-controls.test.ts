import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerText } from '../../../src/notify/alert-subject.js';
import { escapeHtml, printable } from '../../../src/report/index.js';
import { htmlText } from '../../../src/report/html-escape.js';
import { shownLines } from '../../../src/cli/main.js';

/** A tag that reads "mariadb-10.11.9" in a terminal while holding a right-to-left override and an isolate. */
const TROJAN = 'mariadb-10.11.\u202e9-fix\u202c\u2066x\u2069\u200f';

test('the terminal (printable, and every error line the CLI prints) shows bidi controls as code points', () => {
  assert.equal(printable(TROJAN), 'mariadb-10.11.\\u202e9-fix\\u202c\\u2066x\\u2069\\u200f');
  assert.equal(printable(printable(TROJAN)), printable(TROJAN), 'applied twice it changes nothing');
  assert.equal(shownLines(`qpswatch: no tag ${TROJAN}`), `qpswatch: no tag ${printable(TROJAN)}\n`);
});

test('HTML spells them out: an entity would still reverse what follows it', () => {
  for (const html of [escapeHtml(TROJAN), htmlText(TROJAN)]) {
    assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(html), html);
    assert.match(html, /\\u202e/);
  }
});

test('an email subject drops them, so a mail list shows what is there', () => {
  assert.equal(headerText(`qpswatch: ${TROJAN} regressed`), 'qpswatch: mariadb-10.11.9-fixx regressed');
});
