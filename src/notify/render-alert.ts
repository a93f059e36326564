import { escapeHtml, renderHtmlDocument, renderTextDocument } from '../report/index.js';
import type { AlertContent, RenderedMessage } from './alert-content.js';
import { alertDocument } from './alert-document.js';
import { alertSubject } from './alert-subject.js';
import { eventRows } from './event-tests.js';

/** Only web links become a clickable anchor; anything else (javascript:, data:) stays text in the text part. */
function webLink(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The report layout has no link block, so the dashboard anchor is put after the title's closing tag. That tag is
 * found reliably: the title is the document's first heading, and every piece of data in it is escaped.
 */
function withDashboardLink(html: string, url: string): string {
  const anchor = `<p style="margin:0 0 12px 0"><a href="${escapeHtml(url)}">Open the dashboard</a></p>`;
  const end = html.indexOf('</h1>');
  return end < 0 ? html : `${html.slice(0, end + 5)}\n${anchor}${html.slice(end + 5)}`;
}

/** Subject, text part and HTML part of one alert; tags, names and host facts are data, escaped in the HTML part. */
export function renderAlert(content: AlertContent): RenderedMessage {
  const rows = eventRows(content);
  const subject = alertSubject(content, rows);
  const link = webLink(content.dashboardUrl);
  const text = renderTextDocument(alertDocument(content, rows, subject, true));
  const html = renderHtmlDocument(subject, alertDocument(content, rows, subject, link === undefined));
  return { subject, text, html: link === undefined ? html : withDashboardLink(html, link) };
}
