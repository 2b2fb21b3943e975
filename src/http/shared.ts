/**
 * Shares one rendering among the requests that arrive together. The first request schedules a render
 * for the end of the current turn of the event loop (`setImmediate`); every request that arrives before
 * it runs gets the same result. So 2 000 concurrent scrapes cost a few renderings instead of 2 000 in a
 * row, and still no answer was rendered before its request arrived: a scrape never sees stale counts.
 */
export function shareRendering<T>(render: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        pending = undefined;
        render().then(resolve, reject);
      });
    }));
}
