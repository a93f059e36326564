/**
 * One read of the source per scrape: the registry asks every collector at once (its collect() calls all start in
 * the same turn), so they share the read in flight instead of each querying the store. Once it settles the next call
 * reads again, so no value is ever older than the scrape.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    if (inFlight === undefined) {
      // Through a promise, so a source that throws at once fails the scrape like one that rejects.
      const started = Promise.resolve().then(read);
      inFlight = started;
      const clear = (): void => {
        if (inFlight === started) inFlight = undefined;
      };
      started.then(clear, clear);
    }
    return inFlight;
  };
}
