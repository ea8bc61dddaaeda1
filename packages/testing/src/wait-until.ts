/**
 * Polls `probe` every `intervalMs` until it gives a value (not `undefined`); fails with `failure`
 * after `timeoutMs`. The probe may be async. For state that background work (consumers, flushes)
 * reaches eventually; never to let time pass.
 */
export async function waitUntil<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
  failure = 'timed out waiting',
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
