import { randomUUID } from 'node:crypto';
import { createPool } from '@platform/db';
import { waitUntil, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { round, run } from './fixtures.js';
import { startObservabilityHarness, type ObservabilityHarness } from './harness.js';

// The fixture facts the analytics route files read (the figures their tests expect follow from
// them): agent and workflow ids, and the past hour `T` most facts finished in.
export const HOUR = 3_600_000;
export const A = randomUUID(); // agent "Alpha" (named through the agent directory)
export const B = randomUUID(); // agent without a directory entry
export const W1 = randomUUID();
export const W2 = randomUUID();
const lateRunId = randomUUID();
const now = new Date();
// Every fact but one in one past hour; agent B's round 10 s ago (current qps, another hour).
export const T = new Date(Math.floor(now.getTime() / HOUR) * HOUR - 2 * HOUR + 10 * 60_000);
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

/** One observability harness and an Admin for a route file, started before its tests, stopped after. */
export function useAnalyticsSuite(ready: (harness: ObservabilityHarness, admin: IdentityUser) => void): void {
  let harness: ObservabilityHarness | undefined;
  beforeAll(async () => {
    harness = await startObservabilityHarness();
    ready(harness, await harness.createUser({ roles: ['Admin'] }));
  }, 120_000);
  afterAll(async () => {
    await harness?.stop();
  });
}

/** GET /admin/observability{path} as `admin`, expecting 200 / 0; the payload. */
export function analyticsGetter(context: () => { h: ObservabilityHarness; admin: IdentityUser }) {
  return async function get(path: string) {
    const { h, admin } = context();
    const response = await h.request('GET', `/admin/observability${path}`, { token: admin.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.code).toBe(0);
    return response.body.data as Record<string, any>;
  };
}

/**
 * Publishes the fixture facts before the tests of the enclosing describe (the tests before it see
 * no data) and waits until they are consumed.
 */
export function withFixtureFacts(context: () => { h: ObservabilityHarness; admin: IdentityUser }): void {
  beforeAll(async () => {
    const { h, admin } = context();
    await publishFixtureFacts(h, admin);
  }, 120_000);
}

async function publishFixtureFacts(h: ObservabilityHarness, admin: IdentityUser): Promise<void> {
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
  // Answers are cached 30 s per endpoint and parameters: one given before the facts would hide them.
  await h.observability.dependencies.cache.clear();
}
