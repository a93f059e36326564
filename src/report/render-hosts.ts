import type { HostsHistoryView } from '../model/index.js';
import { UnknownReportFormatError } from './errors.js';
import { checkHistoryView } from './validate-history.js';
import { hostsCsv, hostsJson } from './hosts-data.js';
import { hostsDocument, hostsTitle } from './hosts-document.js';
import { renderHtmlDocument } from './html-layout.js';
import { renderMarkdownDocument } from './markdown-layout.js';
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from './render-comparison.js';
import { renderTextDocument } from './text-layout.js';

const renderers: Record<ReportFormat, (view: HostsHistoryView) => string> = {
  text: (view) => renderTextDocument(hostsDocument(view)),
  md: (view) => renderMarkdownDocument(hostsDocument(view)),
  csv: hostsCsv,
  json: hostsJson,
  // Every text of the page (host names, inventories, tags) goes through the layout's escaping.
  html: (view) => renderHtmlDocument(hostsTitle(view), hostsDocument(view)),
};

/** Renders a series' hosts side by side (report --by-host). */
export function renderHostsHistory(view: HostsHistoryView, format: ReportFormat): string {
  if (!isReportFormat(format)) throw new UnknownReportFormatError(format, REPORT_FORMATS);
  for (const host of view.hosts) if (host.history !== null) checkHistoryView(host.history);
  return renderers[format](view);
}
