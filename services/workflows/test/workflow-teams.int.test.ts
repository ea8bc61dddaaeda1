import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chainDefinition,
  startWorkflowsHarness,
  type TestUser,
  type WorkflowsHarness,
} from './support/harness.js';

let harness: WorkflowsHarness;
let owner: TestUser; // the team's OWNER
let admin: TestUser; // the team's ADMIN
let author: TestUser; // a MEMBER who creates the workflow
let member: TestUser; // another MEMBER
let outsider: TestUser;
let teamId: string;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
}, 60_000);
beforeEach(async () => {
  [owner, admin, author, member, outsider] = await Promise.all([
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
  ]);
  const team = await call(owner, 'POST', '/teams', { name: `wf-team-${Date.now()}-${Math.random()}` });
  expect(team.status).toBe(200);
  teamId = team.body.data.id;
  for (const [user, role] of [
    [admin, 'ADMIN'],
    [author, 'MEMBER'],
    [member, 'MEMBER'],
  ] as const) {
    const added = await call(owner, 'POST', `/teams/${teamId}/members`, { user_id: user.id, role });
    expect(added.status).toBe(200);
  }
});
afterAll(async () => {
  await harness?.stop();
});

function call(user: TestUser, method: string, path: string, json?: unknown) {
  return harness.request(method, path, { token: user.token, json });
}

async function teamWorkflow() {
  const res = await call(author, 'POST', '/workflows', {
    name: 'team flow',
    team_id: teamId,
    definition: chainDefinition(),
  });
  expect([res.status, res.body.data.team_id, res.body.data.owner_id]).toEqual([200, teamId, author.id]);
  return res.body.data.id as string;
}

describe('team workflows', () => {
  it('members read it; the owner and the team OWNER/ADMIN change it; others get 404', async () => {
    const id = await teamWorkflow();
    for (const user of [owner, admin, author, member]) {
      expect((await call(user, 'GET', `/workflows/${id}`)).status).toBe(200);
      expect((await call(user, 'GET', `/workflows/${id}/versions`)).status).toBe(200);
    }
    const listed = await call(member, 'GET', `/workflows?team_id=${teamId}`);
    expect(listed.body.data.items.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await call(outsider, 'GET', `/workflows/${id}`)).status).toBe(404);
    expect((await call(outsider, 'GET', `/workflows?team_id=${teamId}`)).body.data.total).toBe(0);

    let version = 1;
    for (const user of [author, owner, admin]) {
      const res = await call(user, 'PUT', `/workflows/${id}`, { definition: chainDefinition(2, 2, user.id) });
      version += 1;
      expect([res.status, res.body.data.version]).toEqual([200, version]);
    }
    for (const user of [member, outsider]) {
      for (const [method, path, json] of [
        ['PUT', `/workflows/${id}`, { name: 'x' }],
        ['POST', `/workflows/${id}/versions`, { description: 'x' }],
        ['POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' }],
        ['DELETE', `/workflows/${id}`, undefined],
      ] as const) {
        const res = await call(user, method, path, json);
        expect([path, res.status, res.body.code]).toEqual([path, 404, 4000]);
      }
    }
    expect(
      (await call(admin, 'POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' })).status,
    ).toBe(200);
    expect((await call(owner, 'DELETE', `/workflows/${id}`)).status).toBe(200);
  });

  it('a demoted admin loses change rights on the next request', async () => {
    const id = await teamWorkflow();
    expect((await call(admin, 'PUT', `/workflows/${id}`, { name: 'by admin' })).status).toBe(200);
    const demoted = await call(owner, 'PUT', `/teams/${teamId}/members/${admin.id}`, { role: 'MEMBER' });
    expect(demoted.status).toBe(200);
    expect((await call(admin, 'PUT', `/workflows/${id}`, { name: 'again' })).status).toBe(404);
    expect((await call(admin, 'GET', `/workflows/${id}`)).body.data.name).toBe('by admin');
  });

  it('a superuser may create in any existing team, and reads and changes team workflows', async () => {
    const root = await harness.createUser({ superuser: true });
    const definition = chainDefinition();
    const made = await call(root, 'POST', '/workflows', { name: 'root flow', team_id: teamId, definition });
    expect([made.status, made.body.data.team_id]).toEqual([200, teamId]);
    const missing = '00000000-0000-4000-8000-000000000000';
    const unknown = await call(root, 'POST', '/workflows', { name: 'x', team_id: missing, definition });
    expect([unknown.status, unknown.body.code]).toEqual([404, 4004]);
    const id = await teamWorkflow();
    expect((await call(root, 'PUT', `/workflows/${id}`, { name: 'by root' })).status).toBe(200);
    expect((await call(member, 'GET', `/workflows/${made.body.data.id}`)).status).toBe(200);
  });

  it('creating in a team the caller is not in is 404 / 4004', async () => {
    const res = await call(outsider, 'POST', '/workflows', {
      name: 'x',
      team_id: teamId,
      definition: chainDefinition(),
    });
    expect([res.status, res.body.code]).toEqual([404, 4004]);
  });
});
