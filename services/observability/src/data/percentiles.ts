/** The four percentiles every latency figure carries. */
export const LEVELS = [0.5, 0.9, 0.95, 0.99] as const;

export interface PercentileSet {
  p50_ms: number;
  p90_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export const NO_PERCENTILES: PercentileSet = { p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 };

/**
 * percentile_cont's interpolation (PostgreSQL: lo + (hi − lo) · (p·(n−1) − floor(p·(n−1))), in
 * float8), so the figures equal `percentile_cont` over the raw facts to the last bit.
 */
export function interpolate(row: Record<string, unknown>, total: number): PercentileSet {
  if (total <= 0) return NO_PERCENTILES;
  const values = LEVELS.map((p, i) => {
    const lo = Number(row[`lo${i}`]);
    const hiRaw = row[`hi${i}`];
    const hi = hiRaw === null || hiRaw === undefined ? lo : Number(hiRaw);
    const position = p * (total - 1);
    const fraction = position - Math.floor(position);
    return fraction === 0 ? lo : lo + (hi - lo) * fraction;
  });
  return { p50_ms: values[0]!, p90_ms: values[1]!, p95_ms: values[2]!, p99_ms: values[3]! };
}
