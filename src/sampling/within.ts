export type Answer<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * The answer of `call`, or why there is none: a throw, a rejection, or no answer within `timeoutMs`. Never throws.
 * A late answer is dropped, not awaited; a synchronous stretch of `call` still blocks the event loop while it runs.
 */
export async function within<T>(call: () => Promise<T>, timeoutMs: number): Promise<Answer<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const attempt = (async (): Promise<Answer<T>> => {
    try {
      return { ok: true, value: await call() };
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
  })();
  try {
    return await Promise.race([attempt, late]);
  } finally {
    clearTimeout(timer);
  }
}
