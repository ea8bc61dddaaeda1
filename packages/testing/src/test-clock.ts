/** A clock a test moves by hand, for code that takes `now` as a dependency. */
export interface TestClock {
  /** Epoch ms. */
  now(): number;
  date(): Date;
  /** Jumps forward (or back, with a negative step): time passes without waiting for it. */
  advance(ms: number): void;
  /** Back to the real time. */
  reset(): void;
}

/**
 * The real time plus an offset the test sets: code under test sees time pass normally until the
 * test jumps it (e.g. past a key's expiry), and other tests sharing the clock see real time again
 * after `reset`.
 */
export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    date: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}
