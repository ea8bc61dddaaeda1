import { randomUUID } from 'node:crypto';
import { createPool } from '@platform/db';
import { waitUntil, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { round, run } from './support/fixtures.js';
import { startObservabilityHarness, type ObservabilityHarness } from './support/harness.js';

const HOUR = 3_600_000;
let h: ObservabilityHarness;
let admin: IdentityUser;
const A = randomUUID(); // agent "Alpha" (named through the agent directory)
const B = randomUUID(); // agent without a directory entry
const W1 = randomUUID();
const W2 = randomUUID();
const lateRunId = randomUUID();
const now = new Date();
// Every fact but one in one past hour; agent B's round 10 s ago (current qps, another hour).
const T = new Date(Math.floor(now.getTime() / HOUR) * HOUR - 2 * HOUR + 10 * 60_000);
const recent = new Date(now.getTime() - 10_000);
const a1 = round({
  agent_id: A,
  round_status: 'completed',
  duration_ms: 100,
  first_token_ms: 10,
  prompt_tokens: 5,
  completion_tokens: 5,
  model: 'gpt-x',
  finished_at: T,
});

async function get(path: string) {
  const response = await h.request('GET', `/admin/observability${path}`, { token: admin.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.code).toBe(0);
  return response.body.data as Record<string, any>;
}

beforeAll(async () => {
  h = await startObservabilityHarness();
  admin = await h.createUser({ roles: ['Admin'] });
  // W1 is a workflow the workflows service knows (its name comes from GetWorkflowNames); W2 is not.
  const workflowsDb = createPool(h.workflows.database.url);
  await workflowsDb.query(
    `INSERT INTO workflows (id, name, owner_id, definition) VALUES ($1, 'Flow One', $2, '{}')`,
    [W1, admin.id],
  );
  await workflowsDb.end();
  await h.publishDirectory([
    { id: A, name: 'Alpha', icon: '', deleted: false, updated_at: now.toISOString() },
  ]);
  await h.publishRounds([
    a1,
    round({
      agent_id: A,
      round_status: 'completed',
      duration_ms: 200,
      first_token_ms: 20,
      prompt_tokens: 10,
      completion_tokens: 10,
      model: 'gpt-x',
      finished_at: T,
    }),
    round({
      agent_id: A,
      round_status: 'completed',
      duration_ms: 300,
      first_token_ms: 30,
      prompt_tokens: 1,
      completion_tokens: 2,
      model: 'gpt-x',
      finished_at: T,
    }),
    round({ agent_id: A, round_status: 'error', duration_ms: 400, model: 'gpt-x', finished_at: T }),
    round({
      agent_id: B,
      round_status: 'completed',
      duration_ms: 1000,
      first_token_ms: 50,
      prompt_tokens: 100,
      completion_tokens: 0,
      model: 'claude',
      finished_at: recent,
    }),
    a1, // redelivered: counts once
  ]);
  const w1success = run({
    workflow_id: W1,
    status: 'success',
    total_duration_ms: 500,
    total_tokens: 7,
    finished_at: T,
    nodes: [
      { node_type: 'llm', status: 'success', duration_ms: 100 },
      { node_type: 'code', status: 'failed', duration_ms: 40 },
    ],
  });
  await h.publishRuns([
    w1success,
    run({
      workflow_id: W1,
      status: 'timeout',
      total_duration_ms: 2000,
      total_tokens: 3,
      finished_at: T,
      nodes: [{ node_type: 'llm', status: 'timeout', duration_ms: 2000 }],
    }),
    run({ id: lateRunId, workflow_id: W1, status: 'running', total_duration_ms: 0, finished_at: T }),
    run({ workflow_id: W2, status: 'failed', total_duration_ms: 50, finished_at: T }),
    run({ workflow_id: W2, status: 'running', total_duration_ms: 0, finished_at: T }),
    w1success, // redelivered
  ]);
  // The running run finishes later; a stale `running` after it changes nothing.
  await h.publishRuns([
    run({
      id: lateRunId,
      workflow_id: W1,
      status: 'success',
      total_duration_ms: 800,
      total_tokens: 0,
      finished_at: T,
    }),
    run({ id: lateRunId, workflow_id: W1, status: 'running', total_duration_ms: 0, finished_at: T }),
  ]);
  const pool = h.observability.dependencies.pool;
  await waitUntil(
    async () => {
      const { rows } = await pool.query<{ rounds: number; final: number; named: number }>(
        `SELECT (SELECT count(*)::int FROM agent_rounds) AS rounds,
              (SELECT count(*)::int FROM workflow_runs WHERE status <> 'running') AS final,
              (SELECT count(*)::int FROM agent_directory WHERE id = $1) AS named`,
        [A],
      );
      return rows[0]!.rounds === 5 && rows[0]!.final === 4 && rows[0]!.named === 1 ? true : undefined;
    },
    30_000,
    'facts not consumed',
  );
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe('analytics over fixture facts published on the telemetry topics', () => {
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

  it('agents: list sorted and paged with ids and names, detail with trend', async () => {
    const list = await get('/agents?time_range=7d&sort_by=requests');
    expect(list.total).toBe(2);
    expect(list.items.map((a: { agent_id: string }) => a.agent_id)).toEqual([A, B]);
    expect(list.items[0]).toMatchObject({
      agent_id: A,
      agent_name: 'Alpha',
      requests: 4,
      completed: 3,
      errors: 1,
      success_rate: 75,
      timeout_rate: 25,
      tokens: 33,
      p50: 250,
    });
    expect(list.items[0].p90).toBeCloseTo(370, 9);
    expect(list.items[0].p99).toBeCloseTo(397, 9);
    expect(list.items[1]).toMatchObject({ agent_id: B, agent_name: null, requests: 1, p50: 1000, p99: 1000 });
    const ascending = await get('/agents?time_range=7d&sort_by=p50&sort_order=asc&page=2&page_size=1');
    expect(ascending).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(ascending.items.map((a: { agent_id: string }) => a.agent_id)).toEqual([B]);
    // Sorted by a percentile, the page still carries every figure (not only the sort key's).
    const byP99 = await get('/agents?time_range=7d&sort_by=p99&sort_order=asc&page=1&page_size=1');
    expect(byP99.items[0]).toMatchObject({ agent_id: A, p50: 250 });
    expect(byP99.items[0].p90).toBeCloseTo(370, 9);
    expect(byP99.items[0].p99).toBeCloseTo(397, 9);
    expect(byP99.items[0].ttft.p50_ms).toBe(20);

    const detail = await get(`/agent/${A}?time_range=7d`);
    expect(detail.agent).toMatchObject({ agent_id: A, agent_name: 'Alpha', requests: 4, tokens: 33 });
    expect(detail.granularity).toBe('hour');
    const bucket = detail.trend.find(
      (p: { bucket: string }) => p.bucket === new Date(Math.floor(T.getTime() / HOUR) * HOUR).toISOString(),
    );
    expect(bucket).toEqual({ bucket: bucket.bucket, requests: 4, successes: 3, failures: 1, tokens: 33 });
  });

  it('workflows: list with failed nodes, detail with node types', async () => {
    const list = await get('/workflows?time_range=7d&sort_by=runs');
    expect(list.items.map((w: { workflow_id: string }) => w.workflow_id)).toEqual([W1, W2]);
    expect(list.items[0]).toMatchObject({
      workflow_id: W1,
      workflow_name: 'Flow One',
      runs: 3,
      succeeded: 2,
      failed: 1,
      timeouts: 1,
      failed_nodes: 2,
      tokens: 10,
      p50: 800,
    });
    expect(list.items[0].p90).toBeCloseTo(1760, 9);
    expect(list.items[0].p99).toBeCloseTo(1976, 9);
    expect(list.items[1]).toMatchObject({
      workflow_id: W2,
      workflow_name: null,
      runs: 1,
      succeeded: 0,
      failed: 1,
      p50: 50,
    });
    const byNodes = await get('/workflows?time_range=7d&sort_by=failed_nodes&sort_order=asc');
    expect(byNodes.items.map((w: { workflow_id: string }) => w.workflow_id)).toEqual([W2, W1]);

    const detail = await get(`/workflow/${W1}`);
    expect(detail.workflow).toMatchObject({ workflow_id: W1, workflow_name: 'Flow One', runs: 3 });
    expect(detail.node_types).toEqual([
      { node_type: 'llm', execution_count: 2, failed_count: 1, avg_duration_ms: 1050 },
      { node_type: 'code', execution_count: 1, failed_count: 1, avg_duration_ms: 40 },
    ]);
  });

  it('timeouts: workflow timeouts and agent errors, paged, agent type unavailable', async () => {
    const all = await get('/timeouts?time_range=7d');
    expect(all.total).toBe(2);
    expect(all.agent_timeout_type_available).toBe(false);
    expect(
      all.items.map((i: { source: string; timeout_type: string }) => [i.source, i.timeout_type]).sort(),
    ).toEqual([
      ['agent', 'unknown'],
      ['workflow', 'workflow'],
    ]);
    const agentOnly = await get('/timeouts?source=agent');
    expect(agentOnly.items).toHaveLength(1);
    expect(agentOnly.items[0]).toMatchObject({
      entity_id: A,
      entity_name: 'Alpha',
      status: 'error',
      duration_ms: 400,
    });
    const longest = await get('/timeouts?sort_by=duration_ms&page_size=1');
    expect(longest.items[0]).toMatchObject({
      source: 'workflow',
      entity_id: W1,
      entity_name: 'Flow One',
      duration_ms: 2000,
    });
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
