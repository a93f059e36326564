import { TarballIndexError } from './tarball-errors.js';

export interface HttpOptions {
  signal?: AbortSignal | undefined;
  /** Until the answer's headers arrive, and then between two chunks of the body. */
  timeoutMs: number;
}

/**
 * Node's fetch refuses a URL with a user part, so credentials travel in an Authorization header instead; the URL
 * that is fetched and logged has none.
 */
export function requestOf(url: string): { href: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { href: parsed.href, headers: {} };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return {
    href: parsed.href,
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  };
}

/** fetch with a timeout for the headers; the signal given stops it too. The caller reads the body. */
export async function fetchAnswer(
  url: string,
  opts: HttpOptions,
): Promise<{ response: Response; controller: AbortController }> {
  const { href, headers } = requestOf(url);
  const controller = new AbortController();
  const stop = (): void => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(
    () => controller.abort(new Error(`no answer in ${opts.timeoutMs / 1000} s`)),
    opts.timeoutMs,
  );
  try {
    const response = await fetch(href, { headers, signal: controller.signal, redirect: 'follow' });
    return { response, controller };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
}

/** Why a fetch failed, in a few words: the cause's code (ECONNREFUSED), or its message. */
export function fetchFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return err.message;
}

const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/** An index page or checksums file as text: at most 8 MiB, an HTTP error or a network failure in one line. */
export async function fetchIndexText(url: string, opts: HttpOptions): Promise<string> {
  let answer: Awaited<ReturnType<typeof fetchAnswer>>;
  try {
    answer = await fetchAnswer(url, opts);
  } catch (err) {
    opts.signal?.throwIfAborted();
    throw new TarballIndexError(url, `not reachable (${fetchFailure(err)}): check the URL, the network and any proxy`);
  }
  const { response } = answer;
  if (!response.ok) {
    await response.body?.cancel();
    throw new TarballIndexError(url, `answered HTTP ${response.status} ${response.statusText}: check the URL`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).byteLength;
      if (size > MAX_INDEX_BYTES) {
        answer.controller.abort();
        throw new TarballIndexError(
          url,
          `is larger than ${MAX_INDEX_BYTES} bytes: point the upstream at a folder listing or a list file`,
        );
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  } catch (err) {
    if (err instanceof TarballIndexError) throw err;
    opts.signal?.throwIfAborted();
    throw new TarballIndexError(url, `was cut off (${fetchFailure(err)}); it is read again next time`);
  }
  return Buffer.concat(chunks).toString('utf8');
}
