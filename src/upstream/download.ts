import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log/index.js';
import { fetchAnswer, fetchFailure } from './http-fetch.js';
import { TarballChecksumError, TarballDownloadError } from './tarball-errors.js';

export interface DownloadOptions {
  /** The index's checksum: a file with another one is removed, never renamed into place. */
  sha256: string;
  /** The most a file may be; a larger answer is cut off (the official tarballs are 0.1 to 1.5 GB). */
  maxBytes?: number;
  /** Until the headers arrive, and then the longest pause between two chunks. */
  idleTimeoutMs?: number;
  signal?: AbortSignal | undefined;
  log: Logger;
  /** How often progress is logged at most (default 10 s). */
  progressEveryMs?: number;
}

export const DOWNLOAD_MAX_BYTES = 8 * 1024 ** 3;
const IDLE_TIMEOUT_MS = 120_000;

/**
 * Downloads a URL to `dest`: written to dest.partial while its sha256 is computed, renamed when the whole file is
 * there and its checksum is the index's. A short read (fewer bytes than Content-Length, a connection cut), a stall,
 * an oversize answer or an HTTP error throws TarballDownloadError; another checksum throws TarballChecksumError.
 * Either way nothing is left at dest or dest.partial.
 */
export async function downloadFile(
  url: string,
  dest: string,
  opts: DownloadOptions,
): Promise<{ bytes: number; seconds: number }> {
  const log = opts.log.child({ component: 'upstream' });
  const maxBytes = opts.maxBytes ?? DOWNLOAD_MAX_BYTES;
  const idleMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const partial = `${dest}.partial`;
  const started = Date.now();
  await mkdir(dirname(dest), { recursive: true });
  let answer: Awaited<ReturnType<typeof fetchAnswer>>;
  try {
    answer = await fetchAnswer(url, { signal: opts.signal, timeoutMs: idleMs });
  } catch (err) {
    opts.signal?.throwIfAborted();
    throw new TarballDownloadError(url, `not reachable (${fetchFailure(err)})`);
  }
  const { response, controller } = answer;
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new TarballDownloadError(url, `the server answered HTTP ${response.status} ${response.statusText}`);
  }
  const length = contentLength(response);
  if (length !== undefined && length > maxBytes) {
    await response.body.cancel();
    throw new TarballDownloadError(url, `it is ${length} bytes, over the limit of ${maxBytes}`);
  }
  log.info({ url, bytes: length ?? null, dest }, 'downloading');
  const hash = createHash('sha256');
  const file = await open(partial, 'w', 0o640);
  let received = 0;
  try {
    const progress = progressLogger(log, url, length, opts.progressEveryMs ?? 10_000);
    await readBody(response.body, controller, idleMs, async (chunk) => {
      received += chunk.byteLength;
      if (received > maxBytes) throw new TarballDownloadError(url, `it grew past the limit of ${maxBytes} bytes`);
      hash.update(chunk);
      await file.write(chunk);
      progress(received);
    }).catch((err: unknown) => {
      if (err instanceof TarballDownloadError) throw err;
      opts.signal?.throwIfAborted();
      throw new TarballDownloadError(
        url,
        `cut off after ${received}${length !== undefined ? ` of ${length}` : ''} bytes (${fetchFailure(err)})`,
      );
    });
    if (length !== undefined && received !== length)
      throw new TarballDownloadError(url, `truncated: ${received} of ${length} bytes arrived`);
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(partial, { force: true });
    throw err;
  }
  await file.close();
  const actual = hash.digest('hex');
  if (actual !== opts.sha256) {
    await rm(partial, { force: true });
    throw new TarballChecksumError(url, opts.sha256, actual);
  }
  await rename(partial, dest);
  const seconds = (Date.now() - started) / 1000;
  log.info({ url, bytes: received, seconds, sha256: actual }, 'downloaded; sha256 verified');
  return { bytes: received, seconds };
}

function contentLength(response: Response): number | undefined {
  const text = response.headers.get('content-length');
  if (text === null || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/** Reads every chunk; a pause longer than idleMs aborts the request. */
async function readBody(
  body: ReadableStream<Uint8Array>,
  controller: AbortController,
  idleMs: number,
  onChunk: (chunk: Uint8Array) => Promise<void>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no data for ${idleMs / 1000} s`)), idleMs);
  };
  arm();
  try {
    for await (const chunk of body) {
      arm();
      await onChunk(chunk);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A progress line at most every `everyMs`: bytes so far and, when the size is known, the percent. */
function progressLogger(
  log: Logger,
  url: string,
  total: number | undefined,
  everyMs: number,
): (received: number) => void {
  let last = Date.now();
  return (received) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    log.info(
      {
        url,
        received,
        total: total ?? null,
        percent: total !== undefined && total > 0 ? Math.floor((100 * received) / total) : null,
      },
      'download progress',
    );
  };
}
