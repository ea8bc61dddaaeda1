import { randomUUID } from 'node:crypto';
import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsBySource } from '../src/data/count-queries.js';
import { percentilesBy } from '../src/data/histogram-queries.js';
import { advanceWindows } from '../src/data/window-advance.js';
import { windowOf } from '../src/domain/analytics/parameters.js';
import { round } from './support/fixtures.js';
import { startObservabilityHarness, type ObservabilityHarness } from './support/harness.js';

// The sliding windows are exact at any moment: while the advancer lags behind the clock (the window
// still holds hours that left the range) and when a window starts later than the range (hours it
// lacks), the query corrects with the hourly rows; after the advance the rows alone are exact.
const HOUR = 3_600_000;
let h: ObservabilityHarness;
const firstAgent = randomUUID();

const pool = () => h.observability.dependencies.pool;

/** What the 30d figures must be: percentile_cont and counts over the raw facts since `from`. */
async function expected(from: Date, agent = firstAgent) {
  const { rows } = await pool().query<{ p: number[] | null; n: string }>(
    `SELECT percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY duration_ms) AS p, count(*) AS n
       FROM agent_rounds WHERE agent_id = $1 AND finished_at >= $2`,
    [agent, from],
  );
  return { percentiles: rows[0]!.p, requests: Number(rows[0]!.n) };
}

async function measured(now: Date, agent = firstAgent) {
  const window = windowOf('30d', now);
  const [byEntity, total, counts] = await Promise.all([
    percentilesBy(h.observability.dependencies, [1], 1, window, [agent]),
    percentilesBy(h.observability.dependencies, [1], 1, window, ''),
    countsBySource(h.observability.dependencies, window),
  ]);
  const set = byEntity.get(agent);
  return {
    percentiles: set ? [set.p50_ms, set.p90_ms, set.p95_ms, set.p99_ms] : null,
    total: total.get(''),
    requests: counts.get(1)?.requests ?? 0,
  };
}

async function stored(win: number) {
  const { rows } = await pool().query<{ from_hour: Date }>(
    'SELECT from_hour FROM window_state WHERE win = $1',
    [win],
  );
  return rows[0]!.from_hour;
}

async function published(count: number, agent = firstAgent) {
  await waitUntil(
    async () => {
      const { rows } = await pool().query<{ n: string }>(
        'SELECT count(*) AS n FROM agent_rounds WHERE agent_id = $1',
        [agent],
      );
      return Number(rows[0]!.n) >= count ? true : undefined;
    },
    30_000,
    'facts were not ingested',
  );
}

beforeAll(async () => {
  h = await startObservabilityHarness();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe('sliding windows', () => {
  it('are exact while the advancer lags, when a window starts late, and after each advance', async () => {
    const now = new Date();
    const from = windowOf('30d', now).from!;
    // The 30d window behaves as if the advancer had not run for three hours: it starts 3 h early.
    await pool().query('UPDATE window_state SET from_hour = $2 WHERE win = $1', [
      2,
      new Date(from.getTime() - 3 * HOUR),
    ]);
    const at = (offsetMs: number) => new Date(from.getTime() + offsetMs);
    const facts = [
      ...[7, 11, 13, 2_000, 2_001].map((ms, i) => ({ ms, at: at(-2 * HOUR + i * 1000) })), // left the range
      ...[5, 40_000].map((ms) => ({ ms, at: at(-5 * HOUR) })), // before the window's stored start
      ...Array.from({ length: 60 }, (_, i) => ({ ms: 10 + i * 37, at: at(HOUR + i * 1000) })), // in range
      { ms: 1_234_567, at: at(2 * HOUR) },
    ];
    await h.publishRounds(
      facts.map((f) =>
        round({ agent_id: firstAgent, round_status: 'completed', duration_ms: f.ms, finished_at: f.at }),
      ),
    );
    await published(facts.length);

    const lagging = await measured(now);
    const truth = await expected(from);
    expect(truth.requests).toBe(61);
    expect(lagging.percentiles).toEqual(truth.percentiles);
    expect(lagging.requests).toBe(61);
    expect(lagging.total).toEqual(
      lagging.percentiles && {
        p50_ms: truth.percentiles![0],
        p90_ms: truth.percentiles![1],
        p95_ms: truth.percentiles![2],
        p99_ms: truth.percentiles![3],
      },
    );

    // The advance subtracts the three hours and moves the start; the rows alone are now exact.
    expect(await advanceWindows(pool(), now)).toContain(2);
    expect((await stored(2)).getTime()).toBe(from.getTime());
    expect(await measured(now)).toEqual(lagging);
    const { rows: leftovers } = await pool().query(
      `SELECT ms FROM window_values WHERE n2 <> 0 AND entity_id = $1 AND ms = ANY('{7,11,13,2000,2001}')`,
      [firstAgent],
    );
    expect(leftovers).toEqual([]);
    expect(await advanceWindows(pool(), now)).not.toContain(2); // nothing left to move

    // A window that starts later than the range (a replica whose clock ran three hours ahead
    // advanced it): the hours it lacks are added back from the hourly rows.
    expect(await advanceWindows(pool(), new Date(now.getTime() + 3 * HOUR))).toContain(2);
    expect((await stored(2)).getTime()).toBe(at(3 * HOUR).getTime());
    await h.publishRounds([
      round({
        agent_id: firstAgent,
        round_status: 'completed',
        duration_ms: 99,
        finished_at: at(2 * HOUR + 60_000),
      }),
    ]);
    await published(facts.length + 1);
    const late = await measured(now);
    const truthLate = await expected(from);
    expect(truthLate.requests).toBe(62);
    expect(late.percentiles).toEqual(truthLate.percentiles);
    expect(late.requests).toBe(62);
  });

  it('advances started at once on several replicas move a window exactly once', async () => {
    const agent = randomUUID();
    const now = new Date();
    const from = windowOf('30d', now).from!;
    // A lagging 30d window that still holds an hour of facts that left the range.
    await pool().query('UPDATE window_state SET from_hour = $2 WHERE win = $1', [
      2,
      new Date(from.getTime() - 2 * HOUR),
    ]);
    const facts = [
      ...[3, 4, 5].map((ms) => ({ ms, at: new Date(from.getTime() - HOUR) })),
      ...[40, 50, 60, 70].map((ms) => ({ ms, at: new Date(from.getTime() + HOUR) })),
    ];
    await h.publishRounds(
      facts.map((f) =>
        round({ agent_id: agent, round_status: 'completed', duration_ms: f.ms, finished_at: f.at }),
      ),
    );
    await published(facts.length, agent);
    const results = await Promise.all(Array.from({ length: 6 }, () => advanceWindows(pool(), now)));
    expect(results.filter((moved) => moved.includes(2))).toHaveLength(1);
    expect((await measured(now, agent)).percentiles).toEqual((await expected(from, agent)).percentiles);
    const [p50, p90, p95, p99] = (await expected(from, agent)).percentiles!;
    // The hand-computed values of [40, 50, 60, 70] (the three facts before the range are out).
    [55, 67, 68.5, 69.7].forEach((value, i) => expect([p50, p90, p95, p99][i]).toBeCloseTo(value, 9));
  });

  it('an entity without facts in the range has no percentiles (the views show zeros)', async () => {
    const window = windowOf('7d', new Date());
    const result = await percentilesBy(h.observability.dependencies, [1], 1, window, [randomUUID()]);
    expect(result.size).toBe(0);
    expect((await percentilesBy(h.observability.dependencies, [1], 1, window, [])).size).toBe(0);
  });
});
