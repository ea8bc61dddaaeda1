// GET /admin/observability/overview, /throughput and /tokens (gateway routes/observability-routes.ts):
// the totals over a time range. With no data first (the answers with nothing consumed, the
// time_range fallback), then over the fixture facts (support/analytics-facts.ts), and the security
// cases. The per-agent, per-workflow and timeout routes, and the access table of all eight:
// get-admin-observability-agents-workflows-timeouts.
import { randomUUID } from 'node:crypto';
import { createPool } from '@platform/db';
import { routeSecurity, waitUntil, type IdentityUser } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import {
  analyticsGetter,
  B,
  HOUR,
  T,
  useAnalyticsSuite,
  withFixtureFacts,
} from '../support/analytics-facts.js';
import { round } from '../support/fixtures.js';
import type { ObservabilityHarness } from '../support/harness.js';

let h: ObservabilityHarness;
let admin: IdentityUser;
const P = '/admin/observability';
useAnalyticsSuite((started, user) => {
  [h, admin] = [started, user];
});
const get = analyticsGetter(() => ({ h, admin }));

describe('observability analytics: access', () => {
  it('a superuser and a role holding admin:dashboard:access are let in', async () => {
    const superuser = await h.createUser({ roles: [], superuser: true });
    for (const token of [superuser.token, admin.token]) {
      const response = await h.request('GET', `${P}/overview`, { token });
      expect([response.status, response.body.code]).toEqual([200, 0]);
    }
  });
});

describe('observability analytics: parameters (with no data)', () => {
  it('with no data every number is 0, never null', async () => {
    const overview = await h.request('GET', `${P}/overview`, { token: admin.token });
    expect(overview.body.data).toEqual({
      time_range: '30d',
      totals: { agent_requests: 0, workflow_runs: 0, total_requests: 0, total_tokens: 0 },
      rates: { agent_success_rate: 0, workflow_success_rate: 0, overall_success_rate: 0, timeout_rate: 0 },
      latency: { p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 },
      ttft: { p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 },
      throughput: { current_qps: 0, peak_hourly_requests: 0 },
    });
    const nobody = randomUUID(); // an agent id that no fact names (ids are UUIDs, issue 20)
    const agent = await h.request('GET', `${P}/agent/${nobody}`, { token: admin.token });
    expect(agent.body.data.agent).toMatchObject({
      agent_id: nobody,
      agent_name: null,
      requests: 0,
      p50: 0,
      p99: 0,
    });
    const tokens = await h.request('GET', `${P}/tokens`, { token: admin.token });
    expect(tokens.body.data).toMatchObject({
      total: 0,
      by_source: { agent: 0, workflow: 0, other: 0 },
      by_model: [],
    });
    const list = await h.request('GET', `${P}/agents`, { token: admin.token });
    expect(list.body.data).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it('an unknown time_range falls back to 30d; granularity defaults by range', async () => {
    for (const value of ['bogus', '', '365d']) {
      const response = await h.request('GET', `${P}/overview?time_range=${value}`, { token: admin.token });
      expect([response.status, response.body.data.time_range]).toEqual([200, '30d']);
    }
    const week = await h.request('GET', `${P}/throughput?time_range=7d`, { token: admin.token });
    expect(week.body.data.granularity).toBe('hour');
    const fallback = await h.request('GET', `${P}/throughput?time_range=nope`, { token: admin.token });
    expect(fallback.body.data.granularity).toBe('day');
  });
});

describe('analytics over fixture facts published on the telemetry topics', () => {
  withFixtureFacts(() => ({ h, admin }));

  it('overview: totals, rates, exact latency and TTFT percentiles, throughput', async () => {
    const data = await get('/overview?time_range=7d');
    expect(data.totals).toEqual({
      agent_requests: 5,
      workflow_runs: 4,
      total_requests: 9,
      total_tokens: 143,
    });
    expect(data.rates).toEqual({
      agent_success_rate: 80,
      workflow_success_rate: 50,
      overall_success_rate: 66.67,
      timeout_rate: 22.22,
    });
    // Latency over 50,100,200,300,400,500,800,1000,2000 (n = 9): p50 rank 4; p90 7.2; p95 7.6; p99 7.92.
    expect(data.latency.p50_ms).toBe(400);
    expect(data.latency.p90_ms).toBeCloseTo(1200, 9);
    expect(data.latency.p95_ms).toBeCloseTo(1600, 9);
    expect(data.latency.p99_ms).toBeCloseTo(1920, 9);
    // TTFT over 10,20,30,50 (the errored round reported none).
    expect(data.ttft.p50_ms).toBeCloseTo(25, 9);
    expect(data.ttft.p90_ms).toBeCloseTo(44, 9);
    expect(data.ttft.p95_ms).toBeCloseTo(47, 9);
    expect(data.ttft.p99_ms).toBeCloseTo(49.4, 9);
    expect(data.throughput).toEqual({ current_qps: 1 / 60, peak_hourly_requests: 8 });
  });

  it('percentiles equal percentile_cont over the raw facts, to the bit', async () => {
    const data = await get('/overview?time_range=all');
    const { rows } = await h.observability.dependencies.pool.query<{ latency: number[]; ttft: number[] }>(
      `SELECT (SELECT percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY d) FROM
                (SELECT duration_ms AS d FROM agent_rounds UNION ALL
                 SELECT total_duration_ms FROM workflow_runs WHERE status <> 'running') f) AS latency,
              (SELECT percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY first_token_ms)
                 FROM agent_rounds WHERE first_token_ms IS NOT NULL) AS ttft`,
    );
    const { latency, ttft } = rows[0]!;
    expect([data.latency.p50_ms, data.latency.p90_ms, data.latency.p95_ms, data.latency.p99_ms]).toEqual(
      latency,
    );
    expect([data.ttft.p50_ms, data.ttft.p90_ms, data.ttft.p95_ms, data.ttft.p99_ms]).toEqual(ttft);
  });

  it('throughput: qps, running workflows, bucketed series', async () => {
    const data = await get('/throughput?time_range=7d');
    expect(data).toMatchObject({ qps: 1 / 60, running_workflows: 1, granularity: 'hour' });
    expect(data.series).toHaveLength(7 * 24 + 1);
    const hourT = new Date(Math.floor(T.getTime() / HOUR) * HOUR).toISOString();
    expect(data.series.find((b: { bucket: string }) => b.bucket === hourT)).toEqual({
      bucket: hourT,
      requests: 8,
      agent_requests: 4,
      workflow_runs: 4,
    });
    const total = data.series.reduce((sum: number, b: { requests: number }) => sum + b.requests, 0);
    expect(total).toBe(9);
    const daily = await get('/throughput?time_range=7d&granularity=day');
    expect(daily.granularity).toBe('day');
  });

  it('tokens: by source and by model; for 7d and 30d the quota counters win when larger', async () => {
    const byModel = [
      { model: 'claude', tokens: 100, requests: 1 },
      { model: 'gpt-x', tokens: 33, requests: 4 },
    ];
    // models' counters are empty: the facts are larger, and the counters were consulted.
    expect(await get('/tokens?time_range=30d')).toEqual({
      time_range: '30d',
      total: 143,
      by_source: { agent: 133, workflow: 10, other: 0 },
      by_model: byModel,
      quota_counters_used: true,
    });
    // The counters (this month, another team's model) now hold more than the facts: they win.
    const modelsDb = createPool(h.models.database.url);
    await modelsDb.query(
      `INSERT INTO model_usage_counters (team_id, model_id, period_start, tokens, requests)
       VALUES ($1, $2, date_trunc('month', now())::date, 10000, 3)`,
      [randomUUID(), randomUUID()],
    );
    await modelsDb.end();
    expect(await get('/tokens?time_range=7d')).toMatchObject({ total: 10000, quota_counters_used: true });
    // `all` and `90d` are not compared (the spec's rule is for 7d and 30d).
    expect(await get('/tokens?time_range=all')).toMatchObject({ total: 143, quota_counters_used: false });
  });

  it('payloads are cached 30 s per endpoint and parameters', async () => {
    const before = await get('/overview?time_range=90d');
    await h.publishRounds([
      round({ agent_id: B, round_status: 'completed', duration_ms: 5, finished_at: T }),
    ]);
    await waitUntil(
      async () => {
        const { rows } = await h.observability.dependencies.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM agent_rounds',
        );
        return rows[0]!.n === 6 ? true : undefined;
      },
      30_000,
      'fact not consumed',
    );
    expect((await get('/overview?time_range=90d')).totals).toEqual(before.totals);
    await h.observability.dependencies.cache.clear();
    expect((await get('/overview?time_range=90d')).totals.agent_requests).toBe(6);
  });
});

describe('GET /admin/observability/overview, /throughput, /tokens: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:dashboard:access → 403 / 3000', async () => {
    const routes = ['overview', 'throughput', 'tokens'].map((name) => ['GET', `${P}/${name}`] as const);
    const { answers, expected } = await routeSecurity(h.request, routes, (await h.createUser()).token);
    expect(answers).toEqual(expected);
  });
});
