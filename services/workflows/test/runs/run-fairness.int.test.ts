import { waitUntil } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, linear, node } from '../support/definitions.js';
import { startGateSink, type GateSink } from '../support/gate-sink.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// Fairness between users (docs/security.md): a user's runs beyond RUN_MAX_RUNNING_PER_USER (and a
// team workflow's beyond RUN_MAX_RUNNING_PER_TEAM) wait queued while other users' runs start; a
// burst of starts past RUN_MAX_UNFINISHED_PER_USER gets exactly the limit accepted, the rest 400 / 5400.
let harness: WorkflowsHarness;
let gate: GateSink;
let flooder: TestUser;
let other: TestUser;
let gatedWorkflow: string;
let trivialWorkflow: string;

const SLOTS = 4;
const PER_USER = 2;
const PER_TEAM = 3;
const UNFINISHED = 6;

beforeAll(async () => {
  gate = await startGateSink();
  harness = await startWorkflowsHarness({
    RUN_WORKER_ENABLED: 'true',
    RUN_WORKER_CONCURRENCY: String(SLOTS),
    RUN_MAX_RUNNING_PER_USER: String(PER_USER),
    RUN_MAX_RUNNING_PER_TEAM: String(PER_TEAM),
    RUN_MAX_UNFINISHED_PER_USER: String(UNFINISHED),
    RUN_CLAIM_POLL_MS: '200',
    RUN_WAIT_LIMIT_MS: '8000',
  });
  flooder = await harness.createUser({ name: 'flooder' });
  other = await harness.createUser({ name: 'bystander' });
  const admin = await harness.createUser({ superuser: true, name: 'fairadmin' });
  const saved = await harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: { workflow_http_allowlist: [gate.origin] },
  });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
  gatedWorkflow = await publishedWorkflow(flooder, gatedDefinition());
  trivialWorkflow = await publishedWorkflow(other, linear());
}, 120_000);

afterAll(async () => {
  await gate?.close();
  await harness?.stop();
});

/** start → http_request held by the gate (header `x-user` = the `who` input) → end. */
function gatedDefinition() {
  return definition(
    [
      node('start', 'start', { inputs: [{ name: 'who', type: 'string', required: true }] }),
      node('call', 'http_request', {
        method: 'POST',
        url: `${gate.origin}/hold`,
        headers: { 'x-user': '{{inputs.who}}' },
        timeout_ms: 60_000,
      }),
      node('end', 'end', { outputs: [{ name: 'status', value: '{{call.status}}' }] }),
    ],
    [edge('start', 'call'), edge('call', 'end')],
  );
}

async function publishedWorkflow(owner: TestUser, defn: unknown, teamId?: string): Promise<string> {
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'fair', definition: defn, ...(teamId ? { team_id: teamId } : {}) },
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(0);
  const id = String(created.body.data.id);
  await harness.request('POST', `/workflows/${id}/publish`, {
    token: owner.token,
    json: { presentation_mode: 'simple' },
  });
  return id;
}

const start = (user: TestUser, workflowId: string, inputs: Record<string, unknown>, wait = false) =>
  harness.request('POST', `/workflows/${workflowId}/run`, { token: user.token, json: { inputs, wait } });

async function statusCounts(ids: string[]): Promise<Record<string, number>> {
  const { rows } = await harness.workflows.dependencies.pool.query<{ status: string; n: string }>(
    'SELECT status, count(*) AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) GROUP BY status',
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

async function releaseUntilFinished(ids: string[]) {
  await waitUntil(
    async () => {
      gate.release();
      const counts = await statusCounts(ids);
      return counts.success === ids.length ? counts : undefined;
    },
    30_000,
    'the gated runs did not all finish',
    100,
  );
}

/** Lets the worker poll a few times: a limit that holds must still hold afterwards. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 800));

describe('fairness between users: runs', () => {
  it('a burst of StartRun past RUN_MAX_UNFINISHED_PER_USER: exactly the limit accepted, the rest 400 / 5400', async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * UNFINISHED }, () => start(flooder, gatedWorkflow, { who: 'burst' })),
    );
    const accepted = answers.filter((a) => a.body.code === 0);
    const refused = answers.filter((a) => a.body.code !== 0);
    expect(accepted).toHaveLength(UNFINISHED);
    expect(refused).toHaveLength(2 * UNFINISHED);
    for (const answer of refused) {
      expect([answer.status, answer.body.code, answer.body.data]).toEqual([
        400,
        5400,
        { limit: UNFINISHED, scope: 'user', resource: 'unfinished_runs' },
      ]);
    }
    // Another user is not counted against this one.
    const bystander = await start(other, trivialWorkflow, { name: 'Bo' });
    expect(bystander.body.code, JSON.stringify(bystander.body)).toBe(0);
    await releaseUntilFinished(accepted.map((a) => String(a.body.data.run_id)));
    // Finished runs free the places: the same user may start again.
    const again = await start(flooder, gatedWorkflow, { who: 'burst' });
    expect(again.body.code, JSON.stringify(again.body)).toBe(0);
    await releaseUntilFinished([String(again.body.data.run_id)]);
  });

  it("one user's runs beyond RUN_MAX_RUNNING_PER_USER wait queued; another user's run starts at once", async () => {
    const answers = await Promise.all(
      Array.from({ length: UNFINISHED }, () => start(flooder, gatedWorkflow, { who: 'flood' })),
    );
    const ids = answers.map((a) => String(a.body.data.run_id));
    await waitUntil(
      () => (gate.held() >= PER_USER ? true : undefined),
      15_000,
      'no flood run reached the gate',
    );
    await settle();
    // Free slots remain (SLOTS > PER_USER), yet the flooder never holds more than its share.
    expect(gate.held()).toBe(PER_USER);
    expect(await statusCounts(ids)).toEqual({ running: PER_USER, queued: UNFINISHED - PER_USER });
    const bystander = await start(other, trivialWorkflow, { name: 'Ann' }, true);
    expect(bystander.body.data.status, JSON.stringify(bystander.body)).toBe('success');
    await releaseUntilFinished(ids);
    expect(gate.peakByUser.get('flood')).toBe(PER_USER);
  });

  it("a team workflow's runs beyond RUN_MAX_RUNNING_PER_TEAM wait queued, whoever started them", async () => {
    const team = await harness.request('POST', '/teams', {
      token: flooder.token,
      json: { name: `fair-team-${Date.now()}` },
    });
    expect(team.body.code, JSON.stringify(team.body)).toBe(0);
    const teamId = String(team.body.data.id);
    const members = [other, await harness.createUser({ name: 'teammate' })];
    for (const member of members) {
      const added = await harness.request('POST', `/teams/${teamId}/members`, {
        token: flooder.token,
        json: { user_id: member.id, role: 'MEMBER' },
      });
      expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    }
    const teamWorkflow = await publishedWorkflow(flooder, gatedDefinition(), teamId);
    // Each member starts two runs: each user is within PER_USER, the team's three are not.
    const answers = await Promise.all(
      [flooder, ...members].flatMap((user) => [0, 1].map(() => start(user, teamWorkflow, { who: 'team' }))),
    );
    for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    const ids = answers.map((a) => String(a.body.data.run_id));
    await waitUntil(() => (gate.held() >= PER_TEAM ? true : undefined), 15_000, 'team runs did not start');
    await settle();
    expect(gate.held()).toBe(PER_TEAM);
    expect(await statusCounts(ids)).toEqual({ running: PER_TEAM, queued: 6 - PER_TEAM });
    await releaseUntilFinished(ids);
    expect(gate.peakByUser.get('team')).toBe(PER_TEAM);
  });
});
