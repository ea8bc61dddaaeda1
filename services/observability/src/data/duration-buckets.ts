/**
 * The coarse histogram buckets of the sliding windows (same as SQL `duration_bucket`): exact below
 * 64 ms, then 32 buckets per power of two, so a bucket spans at most 1/32 of its values and the
 * exact value at a rank is found among the few milliseconds of one bucket.
 */
const EXACT_BELOW = 64;
const SUB_BITS = 5;
const SUBS = 1 << SUB_BITS;

export function bucketOf(ms: number): number {
  if (ms < EXACT_BELOW) return ms;
  const top = 31 - Math.clz32(ms);
  return EXACT_BELOW + (top - 6) * SUBS + ((ms >>> (top - SUB_BITS)) - SUBS);
}

/** The milliseconds a bucket holds: [lo, hi). */
export function bucketRange(bucket: number): { lo: number; hi: number } {
  if (bucket < EXACT_BELOW) return { lo: bucket, hi: bucket + 1 };
  const top = 6 + Math.floor((bucket - EXACT_BELOW) / SUBS);
  const sub = (bucket - EXACT_BELOW) % SUBS;
  const width = 2 ** (top - SUB_BITS);
  const lo = (SUBS + sub) * width;
  return { lo, hi: lo + width };
}
