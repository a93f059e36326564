import type { VerdictKind } from '../model/index.js';
import type { CellTone } from './table.js';

/**
 * The tone of a ratio where no verdict says more (history cells, a C/B of a test not judged): under the threshold
 * reads as a regression, under 0.98 as slower, over 1 / threshold as an improvement; near 1 it is plain.
 */
export function ratioTone(value: number | undefined | null, threshold: number): CellTone | undefined {
  if (value === undefined || value === null || !Number.isFinite(value)) return undefined;
  if (value < threshold) return 'regression';
  if (value < 0.98) return 'slower';
  if (value > 1 / threshold) return 'improvement';
  return undefined;
}

/** A verdict's own tone: ok is green only in the verdict's own cell, so a table of oks stays quiet elsewhere. */
export function verdictTone(kind: VerdictKind | undefined): CellTone | undefined {
  return kind;
}

/** Cell backgrounds in HTML and email (light, so black text stays readable) and their text colour. */
export const TONE_CELL_STYLES: Readonly<Record<CellTone, string>> = {
  regression: 'background-color:#ffebe9;color:#a40e26',
  slower: 'background-color:#fff1e5;color:#953800',
  unstable: 'background-color:#fff8c5;color:#7d4e00',
  improvement: 'background-color:#ddf4ff;color:#0550ae',
  ok: 'background-color:#dafbe1;color:#116329',
  neutral: '',
};

/** ANSI colours of the same tones for a terminal (stdout a terminal and NO_COLOR unset). */
const TONE_ANSI: Readonly<Record<CellTone, string>> = {
  regression: '31',
  slower: '33',
  unstable: '35',
  improvement: '34',
  ok: '32',
  neutral: '',
};

export function ansiTone(text: string, tone: CellTone | undefined): string {
  const code = tone === undefined ? '' : TONE_ANSI[tone];
  return code === '' ? text : `\u001b[${code}m${text}\u001b[0m`;
}
