import { checkComparisonView } from './validate-comparison.js';
import { comparisonCsv } from './comparison-csv.js';
import { comparisonDocument, comparisonTitle } from './comparison-document.js';
import { comparisonJson } from './comparison-json.js';
import type { ComparisonView } from '../model/index.js';
import { UnknownReportFormatError } from './errors.js';
import { renderHtmlDocument } from './html-layout.js';
import { renderMarkdownDocument } from './markdown-layout.js';
import { renderTextDocument } from './text-layout.js';

const renderers = {
  text: (view: ComparisonView) => renderTextDocument(comparisonDocument(view)),
  md: (view: ComparisonView) => renderMarkdownDocument(comparisonDocument(view)),
  csv: comparisonCsv,
  json: comparisonJson,
  html: (view: ComparisonView) => renderHtmlDocument(comparisonTitle(view), comparisonDocument(view)),
} as const satisfies Record<string, (view: ComparisonView) => string>;

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

/** Renders one session's comparison; refuses garbage data (InvalidReportDataError) before printing anything. */
export function renderComparison(view: ComparisonView, format: string): string {
  const render = renderers[parseReportFormat(format)];
  checkComparisonView(view);
  return render(view);
}
