import { renderHtmlDocument, renderTextDocument, type Block } from '../report/index.js';
import type { RenderedMessage } from './alert-content.js';
import { headerText } from './alert-subject.js';

/** The daemon gave up on a release: its build, or its session, failed the last attempt it was allowed. */
export interface FailureContent {
  kind: 'could-not-build' | 'could-not-measure';
  flavor: string;
  upstream: string;
  tag: string;
  version: string;
  /** attempts made of the step that failed */
  attempts: number;
  /** why no more attempts were made: the last one allowed, or a failure that repeats (a compiler error) */
  reason: string;
  /** the last lines of the failure: compiler, server or sysbench output, or the error */
  errorLines: readonly string[];
  /** what a person can do next */
  advice: readonly string[];
}

/** The most error lines a message carries; the log named in them has the rest. */
const MAX_LINES = 40;
const MAX_LINE_CHARS = 400;

/**
 * Output of a compiler or a server is data: escape sequences and other control characters are shown as \xNN, so
 * neither a terminal reading the text part nor a mail client can be made to act on them; the HTML part escapes the
 * rest.
 */
export function inertLine(line: string): string {
  const visible = line.replace(
    /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return visible.length > MAX_LINE_CHARS ? `${visible.slice(0, MAX_LINE_CHARS)}...` : visible;
}

/** e.g. "qpswatch: could not build mariadb-10.11.4" */
export function failureSubject(content: FailureContent): string {
  return headerText(
    `qpswatch: ${content.kind === 'could-not-build' ? 'could not build' : 'could not measure'} ${content.tag}`,
  );
}

/** Subject, text and HTML of a "could not build" or "could not measure" email; every piece of data escaped in HTML. */
export function renderFailureNotice(content: FailureContent): RenderedMessage {
  const subject = failureSubject(content);
  const what = content.kind === 'could-not-build' ? 'build' : 'benchmark session';
  const attempts = content.attempts === 1 ? '1 attempt' : `${content.attempts} attempts`;
  const lines = content.errorLines.slice(-MAX_LINES).map(inertLine);
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: subject },
    {
      kind: 'lines',
      lines: [
        inertLine(
          `The ${what} of ${content.flavor} ${content.version} (tag ` +
            `${content.tag}) of series ${content.upstream} failed after ` +
            `${attempts}; ${content.reason}. Its queue row stays failed.`,
        ),
        ...content.advice.map(inertLine),
      ],
    },
    { kind: 'heading', level: 2, text: 'Last lines' },
    { kind: 'lines', lines: lines.length > 0 ? lines : ['(none were kept)'] },
  ];
  return { subject, text: renderTextDocument(blocks), html: renderHtmlDocument(subject, blocks) };
}
