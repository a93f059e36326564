import { UnknownReportFormatError } from './errors.js';
import { checkHistoryView } from './validate-history.js';
import { historyCsv } from './history-csv.js';
import { historyDocument, historyTitle } from './history-document.js';
import { historyJson } from './history-json.js';
import type { HistoryView } from '../model/index.js';
import { renderHtmlDocument } from './html-layout.js';
import { renderMarkdownDocument } from './markdown-layout.js';
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from './render-comparison.js';
import { renderTextDocument } from './text-layout.js';

const renderers: Record<ReportFormat, (view: HistoryView) => string> = {
  text: (view) => renderTextDocument(historyDocument(view)),
  md: (view) => renderMarkdownDocument(historyDocument(view)),
  csv: historyCsv,
  json: historyJson,
  html: (view) => renderHtmlDocument(historyTitle(view), historyDocument(view, { chart: true })),
};

/** Renders a history across versions; refuses a bad view (InvalidReportDataError naming the field) first. */
export function renderHistory(view: HistoryView, format: ReportFormat): string {
  // Checked again at run time: the type says ReportFormat, but a caller in plain JS or a cast may say anything.
  if (!isReportFormat(format)) throw new UnknownReportFormatError(format, REPORT_FORMATS);
  checkHistoryView(view);
  return renderers[format](view);
}
