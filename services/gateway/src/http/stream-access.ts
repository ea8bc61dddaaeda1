/**
 * Passes `events` through while `recheck` keeps succeeding: it runs every `everyMs` (one at a time)
 * for as long as the stream is open, and its first failure ends the stream with that error (the
 * SSE writer sends it as the `error` event) and cancels the upstream call through `upstream`.
 * Access is decided when a stream opens; this is what makes a logout, a deactivation, a revoked
 * key or a lost team membership reach a stream that is already open, within about `everyMs`.
 */
export async function* whileAccessHolds<T>(
  events: AsyncIterable<T>,
  recheck: () => Promise<void>,
  everyMs: number,
  upstream: AbortController,
): AsyncGenerator<T> {
  let ended = false;
  let lose: (error: unknown) => void = () => undefined;
  const accessLost = new Promise<never>((_resolve, reject) => (lose = reject));
  accessLost.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (ended) return;
    timer = setTimeout(() => recheck().then(schedule, lose), everyMs);
  };
  schedule();
  const iterator = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      const pending = iterator.next();
      // Once access is lost the upstream is cancelled and this read fails: nobody waits for it.
      pending.catch(() => undefined);
      const next = await Promise.race([pending, accessLost]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    ended = true;
    clearTimeout(timer);
    upstream.abort(new Error('event stream ended'));
  }
}
