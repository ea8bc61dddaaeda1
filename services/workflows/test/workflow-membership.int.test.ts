import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear } from './support/definitions.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from './support/harness.js';

// Issue 20, "removed member keeps control": access to a team workflow follows current membership
// of its team, for its owner too (docs/workflows.md "Ownership and access").
let harness: WorkflowsHarness;

beforeAll(async () => {
  // Runs execute (and end) during the test: queued runs left behind make the harness slow to stop.
  harness = await startWorkflowsHarness({ RUN_WORKER_ENABLED: 'true' });
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

function call(user: TestUser, method: string, path: string, json?: unknown) {
  return harness.request(method, path, { token: user.token, json });
}

async function data(res: { status: number; body: { code: number; data: any } }, what: string) {
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** O owns team T with U as a MEMBER; U creates a workflow of T and runs it, O runs it too. */
async function teamWorkflowOfMember() {
  const [teamOwner, author] = await Promise.all([harness.createUser(), harness.createUser()]);
  const team = await data(await call(teamOwner, 'POST', '/teams', { name: `t-${Math.random()}` }), 'team');
  await data(
    await call(teamOwner, 'POST', `/teams/${team.id}/members`, { user_id: author.id, role: 'MEMBER' }),
    'add member',
  );
  const workflow = await data(
    await call(author, 'POST', '/workflows', { name: 'team flow', team_id: team.id, definition: linear() }),
    'create',
  );
  const run = (user: TestUser, name: string) =>
    call(user, 'POST', `/workflows/${workflow.id}/run`, { mode: 'debug', inputs: { name }, wait: true });
  const authorsRun = await data(await run(author, 'author'), 'author run');
  const teammatesRun = await data(await run(teamOwner, 'a teammate secret'), 'teammate run');
  return {
    teamOwner,
    author,
    teamId: team.id as string,
    workflowId: workflow.id as string,
    authorsRun,
    teammatesRun,
  };
}

describe('a team workflow after its owner leaves the team', () => {
  it('refuses the removed owner every action (404); the team keeps it; re-adding restores access', async () => {
    const { teamOwner, author, teamId, workflowId, teammatesRun } = await teamWorkflowOfMember();
    expect((await call(author, 'GET', `/workflows/${workflowId}/runs`)).body.data.total).toBe(2);

    await data(await call(teamOwner, 'DELETE', `/teams/${teamId}/members/${author.id}`), 'remove member');

    const attempts = await Promise.all(
      (
        [
          ['GET', `/workflows/${workflowId}`],
          ['PUT', `/workflows/${workflowId}`, { name: 'still mine' }],
          ['POST', `/workflows/${workflowId}/run`, { mode: 'debug', inputs: { name: 'x' } }],
          ['GET', `/workflows/${workflowId}/runs`],
          ['GET', `/workflows/${workflowId}/runs/${teammatesRun.run_id}`],
          ['GET', `/workflows/${workflowId}/versions`],
          ['POST', `/workflows/${workflowId}/versions`, { description: 'x' }],
          ['POST', `/workflows/${workflowId}/publish`, { presentation_mode: 'simple' }],
          ['GET', `/workflow-versions/${workflowId}/history`],
          ['DELETE', `/workflows/${workflowId}`],
        ] as const
      ).map(async ([method, path, json]) => {
        const res = await call(author, method, path, json);
        return `${method} ${path} ${res.status} ${res.body.code}`;
      }),
    );
    const paths = attempts.map((line) => line.split(' ').slice(0, 2).join(' '));
    expect(attempts).toEqual(paths.map((path) => `${path} 404 4000`));
    const listed = await call(author, 'GET', '/workflows');
    expect(listed.body.data.items.map((w: { id: string }) => w.id)).not.toContain(workflowId);

    // The team keeps the workflow and every run; nothing was changed by the refused calls.
    const kept = await data(await call(teamOwner, 'GET', `/workflows/${workflowId}`), 'team read');
    expect([kept.name, kept.owner_id]).toEqual(['team flow', author.id]);
    expect((await call(teamOwner, 'GET', `/workflows/${workflowId}/runs`)).body.data.total).toBe(2);
    await data(
      await call(teamOwner, 'PUT', `/workflows/${workflowId}`, { name: 'renamed by team' }),
      'team put',
    );

    // Reversible: membership again, access again.
    await data(
      await call(teamOwner, 'POST', `/teams/${teamId}/members`, { user_id: author.id, role: 'MEMBER' }),
      're-add',
    );
    expect((await call(author, 'GET', `/workflows/${workflowId}`)).body.data.name).toBe('renamed by team');
    expect(
      (await call(author, 'GET', '/workflows')).body.data.items.map((w: { id: string }) => w.id),
    ).toContain(workflowId);
  });

  it('leaves the owner his personal workflows', async () => {
    const user = await harness.createUser();
    const mine = await data(
      await call(user, 'POST', '/workflows', { name: 'mine', definition: linear() }),
      'create',
    );
    expect(mine.team_id).toBeNull();
    expect((await call(user, 'GET', `/workflows/${mine.id}`)).status).toBe(200);
    expect((await call(user, 'GET', '/workflows')).body.data.items.map((w: { id: string }) => w.id)).toEqual([
      mine.id,
    ]);
  });
});
