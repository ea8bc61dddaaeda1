/**
 * Polls `probe` every `intervalMs` until it gives a value (not `undefined` and not `false`: a
 * boolean probe such as `count === 1` must keep polling while false, not stop at once and let the
 * test go on before the state it waits for); fails with `failure` after `timeoutMs`. The probe may be async. For state that background work (consumers, flushes)
 * reaches eventually; never to let time pass.
 */
export async function waitUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  failure = 'timed out waiting',
  intervalMs = 50,
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as Exclude<T, false>;
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
