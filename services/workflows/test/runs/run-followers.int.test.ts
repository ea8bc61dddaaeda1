import { openSse, waitUntil, type SseSession } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear } from '../support/definitions.js';
import { insertHeldRun } from '../support/held-run.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// Who follows runs (docs/security.md "Fairness between users"): open SSE streams and `wait: true`
// calls are capped per user (400 / 5400 past it, counted in Redis), and an open stream loses its
// caller within seconds of a logout, a deactivation or a removal from the workflow's team
// (the gateway re-checks every STREAM_ACCESS_RECHECK_MS, default 3 s; the harness uses defaults).
let harness: WorkflowsHarness;
let admin: TestUser;

const STREAMS = 2;
const WAITS = 2;

beforeAll(async () => {
  // No worker: started runs stay queued, so a `wait: true` call waits its whole limit.
  harness = await startWorkflowsHarness({
    RUN_STREAMS_PER_USER: String(STREAMS),
    RUN_WAITS_PER_USER: String(WAITS),
    RUN_WAIT_LIMIT_MS: '1500',
  });
  admin = await harness.createUser({ superuser: true, name: 'followadmin' });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

async function publishedWorkflow(owner: TestUser, teamId?: string): Promise<string> {
  const created = await harness.request('POST', '/workflows', {
    token: owner.token,
    json: { name: 'followed', definition: linear(), ...(teamId ? { team_id: teamId } : {}) },
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(0);
  const id = String(created.body.data.id);
  await harness.request('POST', `/workflows/${id}/publish`, {
    token: owner.token,
    json: { presentation_mode: 'simple' },
  });
  return id;
}

/** A live stream on a run that never ends on its own, opened by `viewer`. */
async function liveStream(workflowId: string, starter: TestUser, viewer = starter): Promise<SseSession> {
  const runId = await insertHeldRun(harness.workflows.dependencies.pool, workflowId, starter.id);
  return openSse(`${harness.baseUrl}/api/v1/workflows/${workflowId}/runs/${runId}/stream`, auth(viewer));
}

/** Ends within `withinMs` with one `error` event carrying `codes`; answers how long it took. */
async function endsWithError(stream: SseSession, codes: number[], withinMs: number): Promise<number> {
  const since = Date.now();
  await Promise.race([
    stream.ended,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), withinMs)),
  ]);
  const last = stream.events.at(-1);
  expect(last?.event).toBe('error');
  expect(codes).toContain((JSON.parse(last!.data) as { code: number }).code);
  return Date.now() - since;
}

const refusal = (resource: string, limit: number) => [400, 5400, { limit, scope: 'user', resource }];

describe('followers of runs: caps and access while open', () => {
  it('a burst of SSE opens past RUN_STREAMS_PER_USER: exactly the limit stream, the rest 400 / 5400', async () => {
    const user = await harness.createUser({ name: 'streamfan' });
    const workflowId = await publishedWorkflow(user);
    const opened = await Promise.all(Array.from({ length: STREAMS + 4 }, () => liveStream(workflowId, user)));
    const streaming = opened.filter((s) => s.status === 200);
    const refused = opened.filter((s) => s.status !== 200);
    expect(streaming).toHaveLength(STREAMS);
    for (const s of refused) {
      const body = s.body as { code: number; data: unknown };
      expect([s.status, body.code, body.data]).toEqual(refusal('open_streams', STREAMS));
    }
    // Another user has places of their own.
    const other = await harness.createUser({ name: 'otherfan' });
    const theirs = await liveStream(await publishedWorkflow(other), other);
    expect(theirs.status).toBe(200);
    // A closed stream gives its place back.
    streaming[0]!.abort();
    const next = await waitUntil(
      async () => {
        const s = await liveStream(workflowId, user);
        return s.status === 200 ? s : undefined;
      },
      10_000,
      'the closed stream kept its place',
      200,
    );
    for (const s of [streaming[1]!, theirs, next]) s.abort();
  });

  it('a burst of wait: true past RUN_WAITS_PER_USER: exactly the limit wait, the rest 400 / 5400 and start nothing', async () => {
    const user = await harness.createUser({ name: 'waiter' });
    const workflowId = await publishedWorkflow(user);
    const answers = await Promise.all(
      Array.from({ length: WAITS + 4 }, () =>
        harness.request('POST', `/workflows/${workflowId}/run`, {
          token: user.token,
          json: { inputs: { name: 'W' }, wait: true },
        }),
      ),
    );
    const waited = answers.filter((a) => a.body.code === 0);
    expect(waited).toHaveLength(WAITS);
    for (const a of waited) expect(a.body.data.status).toBe('queued');
    for (const a of answers.filter((x) => x.body.code !== 0))
      expect([a.status, a.body.code, a.body.data]).toEqual(refusal('waiting_calls', WAITS));
    const { rows } = await harness.workflows.dependencies.pool.query(
      'SELECT id FROM workflow_runs WHERE workflow_id = $1',
      [workflowId],
    );
    expect(rows).toHaveLength(WAITS);
    // The waits are over: their places are free again; a call without `wait` was never counted.
    const again = await harness.request('POST', `/workflows/${workflowId}/run`, {
      token: user.token,
      json: { inputs: { name: 'W' }, wait: true },
    });
    expect(again.body.code, JSON.stringify(again.body)).toBe(0);
  });

  it('an open stream ends within seconds of its token being logged out', async () => {
    const user = await harness.createUser({ name: 'leaver' });
    const stream = await liveStream(await publishedWorkflow(user), user);
    expect(stream.status).toBe(200);
    const out = await harness.request('POST', '/logout', { token: user.token });
    expect(out.body.code, JSON.stringify(out.body)).toBe(0);
    await endsWithError(stream, [2001], 8_000);
  });

  it('an open stream ends within seconds of its user being deactivated', async () => {
    const user = await harness.createUser({ name: 'deactivated' });
    const stream = await liveStream(await publishedWorkflow(user), user);
    expect(stream.status).toBe(200);
    const off = await harness.request('POST', `/admin/users/${user.id}/deactivate`, { token: admin.token });
    expect(off.body.code, JSON.stringify(off.body)).toBe(0);
    await endsWithError(stream, [2001, 2004], 8_000);
  });

  it("an open stream on a team workflow's run ends within seconds of the viewer leaving the team", async () => {
    const owner = await harness.createUser({ name: 'teamowner' });
    const member = await harness.createUser({ name: 'teammember' });
    const team = await harness.request('POST', '/teams', {
      token: owner.token,
      json: { name: `follow-team-${Date.now()}` },
    });
    const teamId = String(team.body.data.id);
    const added = await harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: member.id, role: 'MEMBER' },
    });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    const workflowId = await publishedWorkflow(owner, teamId);
    // The member's principal must carry the team before the stream opens (principal cache).
    await waitUntil(
      async () => {
        const s = await liveStream(workflowId, owner, member);
        if (s.status === 200) return s;
        return undefined;
      },
      10_000,
      'the member could not open the stream',
      250,
    ).then(async (stream) => {
      const removed = await harness.request('DELETE', `/teams/${teamId}/members/${member.id}`, {
        token: owner.token,
      });
      expect(removed.body.code, JSON.stringify(removed.body)).toBe(0);
      // The gateway's principal cache (PRINCIPAL_CACHE_TTL_MS, 5 s) plus one re-check interval.
      await endsWithError(stream, [4000], 12_000);
    });
  });
});
