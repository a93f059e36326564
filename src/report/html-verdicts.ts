import { verdictKinds, type VerdictKind } from '../model/index.js';
import type { HeadlinePart, VerdictRow } from './document.js';
import { htmlText } from './html-escape.js';
import { STYLE } from './html-style.js';
import { TONE_CELL_STYLES } from './tones.js';

const BADGE = 'display:inline-block;padding:4px 10px;margin:0 6px 6px 0;border-radius:12px;font-weight:bold';

/** The headline as one coloured badge per count, worst first: read before anything else. */
export function renderHeadline(parts: readonly HeadlinePart[], lead?: string): string {
  if (parts.length === 0) return `<p style="${STYLE.lines}">no verdicts</p>`;
  const badges = parts.map(
    ({ tone, text }) => `<span style="${BADGE};${TONE_CELL_STYLES[tone]}">${htmlText(text)}</span>`,
  );
  const before = lead !== undefined ? `<span style="margin-right:8px">${htmlText(lead)}</span>` : '';
  return `<p style="margin:0 0 12px 0;font-size:16px">${before}${badges.join('')}</p>`;
}

/** The Verdicts section as a table: the test, its verdict in its colour, what the verdict rests on. */
export function renderVerdictRows(rows: readonly VerdictRow[]): string[] {
  const td = (text: string, extra = ''): string =>
    `<td valign="top" style="${STYLE.td};white-space:normal${extra}">${htmlText(text)}</td>`;
  return [
    `<table cellpadding="0" cellspacing="0" border="0" style="${STYLE.table}">`,
    '<tbody>',
    ...rows.map(
      (row) =>
        `<tr>${td(row.label, ';white-space:nowrap')}` +
        `${td(row.kind, `;white-space:nowrap;font-weight:bold;${toneOf(row.kind)}`)}${td(row.detail)}</tr>`,
    ),
    '</tbody>',
    '</table>',
  ];
}

function toneOf(kind: VerdictKind): string {
  return verdictKinds.includes(kind) ? TONE_CELL_STYLES[kind] : '';
}
