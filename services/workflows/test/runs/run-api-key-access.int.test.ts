import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear } from '../support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// Issue 20, "API keys escalate": a key acts with at most its owner's current permissions at every
// request, and sees only the runs it started unless its owner could see more (docs/apikeys.md
// "What a key may do"). Through the gateway, real identity, apikeys and workflows with a worker.
let harness: WorkflowsHarness;
let admin: TestUser;

type Res = { status: number; body: { code: number; data: any } };

beforeAll(async () => {
  harness = await startWorkflowsHarness({ RUN_WORKER_ENABLED: 'true' }, { withApiKeys: true });
  admin = await harness.createUser({ superuser: true, name: 'keyadmin' });
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

function call(
  user: TestUser | string,
  method: string,
  path: string,
  json?: unknown,
  request = harness.request,
) {
  return request(method, path, { token: typeof user === 'string' ? user : user.token, json }) as Promise<Res>;
}

function data(res: Res, what: string) {
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** An SSE route: the refusal envelope, or the fact that the stream opened (then closed at once). */
async function openStream(credential: string, path: string): Promise<Res> {
  const controller = new AbortController();
  const res = await fetch(`${harness.baseUrl}/api/v1${path}`, {
    headers: { authorization: `Bearer ${credential}` },
    signal: controller.signal,
  });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, body: { code: 0, data: { opened: true } } };
  }
  return { status: res.status, body: (await res.json()) as Res['body'] };
}

const outcome = (res: Res) => [res.status, res.body.code, res.body.data?.error_key];

async function role(permissions: string[]): Promise<{ id: string; name: string }> {
  const name = `r${Math.random().toString(36).slice(2, 10)}`;
  return data(await call(admin, 'POST', '/admin/roles', { name, permissions }), 'role');
}

/** A team workflow created and run (with a secret input) by `teamOwner`; `others` join as MEMBERs. */
async function teamWorkflow(teamOwner: TestUser, others: TestUser[]) {
  const team = data(await call(teamOwner, 'POST', '/teams', { name: `k-${Math.random()}` }), 'team');
  for (const user of others) {
    data(
      await call(teamOwner, 'POST', `/teams/${team.id}/members`, { user_id: user.id, role: 'MEMBER' }),
      'member',
    );
  }
  const workflow = data(
    await call(teamOwner, 'POST', '/workflows', { name: 'keyed', team_id: team.id, definition: linear() }),
    'workflow',
  );
  const secretRun = data(await run(teamOwner, workflow.id, 'team secret'), 'owner run');
  return { workflowId: workflow.id as string, secretRunId: secretRun.run_id as string };
}

function run(credential: TestUser | string, workflowId: string, name: string, request = harness.request) {
  return call(
    credential,
    'POST',
    `/workflows/${workflowId}/run`,
    { mode: 'debug', inputs: { name }, wait: true },
    request,
  );
}

async function mintKey(owner: TestUser, workflowId: string): Promise<string> {
  const body = { name: 'runner', scopes: ['workflow:execute'], workflow_ids: [workflowId] };
  return data(await call(owner, 'POST', '/api-keys', body), 'key').key;
}

describe('an API key acts with at most its owner’s current permissions', () => {
  it('a key minted by a user without workflow permissions cannot run or list (the issue’s sequence)', async () => {
    const keysOnly = await role(['apikey:create', 'apikey:read']);
    const [teamOwner, minter] = await Promise.all([
      harness.createUser(),
      harness.createUser({ roles: [keysOnly.name] }),
    ]);
    const { workflowId, secretRunId } = await teamWorkflow(teamOwner, [minter]);
    expect(outcome(await call(minter, 'GET', `/workflows/${workflowId}`))).toEqual([403, 3000, undefined]);
    expect(outcome(await run(minter, workflowId, 'jwt'))).toEqual([403, 3000, undefined]);

    const key = await mintKey(minter, workflowId);
    const refused = [403, 3000, 'api_key_owner_permission_missing'];
    const attempts = await Promise.all([
      run(key, workflowId, 'by key'),
      call(key, 'GET', `/workflows/${workflowId}/runs`),
      call(key, 'GET', `/workflows/${workflowId}/runs/${secretRunId}`),
      openStream(key, `/workflows/${workflowId}/runs/${secretRunId}/stream`),
    ]);
    expect(attempts.map(outcome)).toEqual([refused, refused, refused, refused]);
    expect(attempts[0]!.body.data.permission).toBe('workflow:execute');
    const runs = data(await call(teamOwner, 'GET', `/workflows/${workflowId}/runs`), 'runs');
    expect(runs.total).toBe(1); // nothing ran for the key
  });

  it('loses a permission its owner loses on the very next request, on every gateway replica', async () => {
    const keysOnly = await role(['apikey:create', 'apikey:read']);
    const owner = await harness.createUser();
    const workflow = data(
      await call(owner, 'POST', '/workflows', { name: 'mine', definition: linear() }),
      'wf',
    );
    const key = await mintKey(owner, workflow.id);
    const second = await harness.startGateway();
    try {
      // Both replicas hold a cached verification of the key.
      for (const request of [harness.request, second.request]) {
        const ran = data(await run(key, workflow.id, 'before', request), 'run');
        expect(ran.status).toBe('success');
      }
      data(await call(admin, 'PUT', `/admin/users/${owner.id}/roles`, { role_ids: [keysOnly.id] }), 'roles');
      const after = await Promise.all(
        [harness.request, second.request].flatMap((request) => [
          run(key, workflow.id, 'after', request),
          call(key, 'GET', `/workflows/${workflow.id}/runs`, undefined, request),
        ]),
      );
      expect(after.map(outcome)).toEqual(
        Array.from({ length: 4 }, () => [403, 3000, 'api_key_owner_permission_missing']),
      );
    } finally {
      await second.close();
    }
  });
});

describe('the runs an API key sees', () => {
  it('only the runs it started, unless its owner’s own view (workflow:read) shows more', async () => {
    const runner = await role(['apikey:create', 'apikey:read', 'workflow:execute']);
    const [teamOwner, member] = await Promise.all([
      harness.createUser(),
      harness.createUser({ roles: [runner.name] }),
    ]);
    const { workflowId, secretRunId } = await teamWorkflow(teamOwner, [member]);
    const key = await mintKey(member, workflowId);
    const own = data(await run(key, workflowId, 'by key'), 'key run');
    expect(own.status).toBe('success');

    const [list, mine, theirs, theirStream] = await Promise.all([
      call(key, 'GET', `/workflows/${workflowId}/runs`),
      call(key, 'GET', `/workflows/${workflowId}/runs/${own.run_id}`),
      call(key, 'GET', `/workflows/${workflowId}/runs/${secretRunId}`),
      openStream(key, `/workflows/${workflowId}/runs/${secretRunId}/stream`),
    ]);
    expect([data(list, 'list').total, list.body.data.items.map((r: { id: string }) => r.id)]).toEqual([
      1,
      [own.run_id],
    ]);
    expect(data(mine, 'own run').id).toBe(own.run_id);
    expect(outcome(theirs)).toEqual([404, 4000, 'workflow_run_not_found']);
    expect(outcome(theirStream)).toEqual([404, 4000, 'workflow_run_not_found']);

    // The owner may now read the workflow's runs himself: the key sees that view from the next request.
    data(
      await call(admin, 'PUT', `/admin/roles/${runner.id}`, {
        permissions: ['apikey:create', 'apikey:read', 'workflow:execute', 'workflow:read'],
      }),
      'grant read',
    );
    const [wide, secret] = await Promise.all([
      call(key, 'GET', `/workflows/${workflowId}/runs`),
      call(key, 'GET', `/workflows/${workflowId}/runs/${secretRunId}`),
    ]);
    expect(data(wide, 'wide').total).toBe(2);
    expect(data(secret, 'their run').inputs).toEqual({ name: 'team secret' });
    expect(data(await call(member, 'GET', `/workflows/${workflowId}/runs`), 'jwt view').total).toBe(2);
  });
});
