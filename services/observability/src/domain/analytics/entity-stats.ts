import type * as observabilityV1 from '@platform/contracts/platform/observability/v1/analytics';
import type { Counts } from '../../data/count-queries.js';
import { countSeries } from '../../data/count-queries.js';
import type { Db } from '../../data/histogram-queries.js';
import type { Granularity, Window } from './parameters.js';
import { percent } from './parameters.js';
import { NO_PERCENTILES, type PercentileSet } from '../../data/percentiles.js';

/** The figures an agent list row and an agent detail share. */
export function agentStats(
  id: string,
  name: string,
  counts: Counts,
  latency: PercentileSet = NO_PERCENTILES,
  ttft: PercentileSet = NO_PERCENTILES,
): observabilityV1.AgentStats {
  return {
    agent_id: id,
    agent_name: name,
    requests: counts.requests,
    completed: counts.successes,
    errors: counts.timeouts,
    success_rate: percent(counts.successes, counts.requests),
    timeout_rate: percent(counts.timeouts, counts.requests),
    tokens: counts.tokens,
    p50: latency.p50_ms,
    p90: latency.p90_ms,
    p95: latency.p95_ms,
    p99: latency.p99_ms,
    ttft,
  };
}

export function workflowStats(
  id: string,
  name: string,
  counts: Counts,
  latency: PercentileSet = NO_PERCENTILES,
): observabilityV1.WorkflowStats {
  return {
    workflow_id: id,
    workflow_name: name,
    runs: counts.requests,
    requests: counts.requests,
    succeeded: counts.successes,
    failed: counts.requests - counts.successes,
    timeouts: counts.timeouts,
    failed_nodes: counts.failedNodes,
    success_rate: percent(counts.successes, counts.requests),
    timeout_rate: percent(counts.timeouts, counts.requests),
    tokens: counts.tokens,
    p50: latency.p50_ms,
    p90: latency.p90_ms,
    p95: latency.p95_ms,
    p99: latency.p99_ms,
  };
}

/** One entity's trend: every bucket of a bounded range (zeros included), data buckets for `all`. */
export async function entityTrend(
  db: Db,
  window: Window,
  granularity: Granularity,
  source: number,
  entity: string,
  now: Date,
): Promise<observabilityV1.TrendPoint[]> {
  const rows = await countSeries(db, window, granularity, { source, entity });
  const byBucket = new Map(rows.map((row) => [row.bucket, row.counts]));
  return buckets(window, granularity, now, [...byBucket.keys()]).map((bucket) => {
    const counts = byBucket.get(bucket);
    return {
      bucket,
      requests: counts?.requests ?? 0,
      successes: counts?.successes ?? 0,
      failures: counts ? counts.requests - counts.successes : 0,
      tokens: counts?.tokens ?? 0,
    };
  });
}

/** Bucket starts (ISO) from the range start to now; for `all` the buckets that have data. */
export function buckets(window: Window, granularity: Granularity, now: Date, present: string[]): string[] {
  if (window.from === null) return [...new Set(present)].sort();
  const step = granularity === 'hour' ? 3_600_000 : 86_400_000;
  const out: string[] = [];
  for (let t = Math.floor(window.from.getTime() / step) * step; t <= now.getTime(); t += step) {
    out.push(new Date(t).toISOString());
  }
  return out;
}
