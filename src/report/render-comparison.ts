import { checkComparisonView } from './validate-comparison.js';
import { comparisonCsv } from './comparison-csv.js';
import { comparisonDocument, comparisonTitle } from './comparison-document.js';
import { comparisonJson } from './comparison-json.js';
import type { ComparisonView } from '../model/index.js';
import type { Block } from './document.js';
import { UnknownReportFormatError } from './errors.js';
import { profileDocument, type ProfileReport } from './profile-report.js';
import { renderHtmlDocument } from './html-layout.js';
import { renderMarkdownDocument } from './markdown-layout.js';
import { renderTextDocument, type TextOptions } from './text-layout.js';

/** The session's blocks, then the profile a check took of its worst regression, when it has one. */
const blocks = (view: ComparisonView, profile?: ProfileReport): Block[] => [
  ...comparisonDocument(view),
  ...(profile !== undefined ? profileDocument(profile) : []),
];

const renderers = {
  text: (view: ComparisonView, profile?: ProfileReport, options?: TextOptions) =>
    renderTextDocument(blocks(view, profile), options),
  md: (view: ComparisonView, profile?: ProfileReport) => renderMarkdownDocument(blocks(view, profile)),
  csv: comparisonCsv,
  json: comparisonJson,
  html: (view: ComparisonView, profile?: ProfileReport) =>
    renderHtmlDocument(comparisonTitle(view), blocks(view, profile)),
} as const satisfies Record<string, (view: ComparisonView, profile?: ProfileReport, options?: TextOptions) => string>;

export type ReportFormat = keyof typeof renderers;

export const REPORT_FORMATS = Object.keys(renderers) as ReportFormat[];

export function isReportFormat(name: string): name is ReportFormat {
  return Object.hasOwn(renderers, name);
}

/** For the CLI: turns a --format value into a ReportFormat or throws the error that lists the valid ones. */
export function parseReportFormat(name: string): ReportFormat {
  if (!isReportFormat(name)) throw new UnknownReportFormatError(name, REPORT_FORMATS);
  return name;
}

/**
 * Renders one session's comparison, with the differential profile a check took of its worst regression when given
 * (text, md, html: the table; html: the flame graph too); refuses garbage data (InvalidReportDataError) before
 * printing anything.
 */
export function renderComparison(
  view: ComparisonView,
  format: string,
  profile?: ProfileReport,
  options: TextOptions = {},
): string {
  const render = renderers[parseReportFormat(format)];
  checkComparisonView(view);
  return render(view, profile, options);
}
