import { beforeEach, expect } from 'vitest';
import { chainDefinition, type TestUser, type WorkflowsHarness } from './harness.js';

/** A team and its people: `owner` (OWNER), `admin` (ADMIN), `author` and `member` (MEMBERs), `outsider`. */
export interface TeamCast {
  owner: TestUser;
  admin: TestUser;
  author: TestUser;
  member: TestUser;
  outsider: TestUser;
  teamId: string;
}

/** One user's call through the harness's gateway. */
export function teamCall(
  harness: WorkflowsHarness,
  user: TestUser,
  method: string,
  path: string,
  json?: unknown,
) {
  return harness.request(method, path, { token: user.token, json });
}

/** Fresh users and a fresh team, built through identity's own routes. */
export async function teamCast(harness: WorkflowsHarness): Promise<TeamCast> {
  const [owner, admin, author, member, outsider] = await Promise.all([
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
    harness.createUser(),
  ]);
  const team = await teamCall(harness, owner, 'POST', '/teams', {
    name: `wf-team-${Date.now()}-${Math.random()}`,
  });
  expect(team.status).toBe(200);
  const teamId = team.body.data.id as string;
  for (const [user, role] of [
    [admin, 'ADMIN'],
    [author, 'MEMBER'],
    [member, 'MEMBER'],
  ] as const) {
    const added = await teamCall(harness, owner, 'POST', `/teams/${teamId}/members`, {
      user_id: user.id,
      role,
    });
    expect(added.status).toBe(200);
  }
  return { owner, admin, author, member, outsider, teamId };
}

/** A workflow of the cast's team, created by its `author`. */
export async function teamWorkflow(harness: WorkflowsHarness, cast: TeamCast): Promise<string> {
  const res = await teamCall(harness, cast.author, 'POST', '/workflows', {
    name: 'team flow',
    team_id: cast.teamId,
    definition: chainDefinition(),
  });
  expect([res.status, res.body.data.team_id, res.body.data.owner_id]).toEqual([
    200,
    cast.teamId,
    cast.author.id,
  ]);
  return res.body.data.id as string;
}

/**
 * A fresh team cast before each test of the enclosing block (`ready` hands it over, the block keeps
 * the people it needs in its own variables), with the block's calls: one user's call, and a new
 * workflow of the team.
 */
export function useTeamCast(harness: () => WorkflowsHarness, ready: (cast: TeamCast) => void) {
  let current: TeamCast | undefined;
  beforeEach(async () => {
    current = await teamCast(harness());
    ready(current);
  });
  return {
    call: (user: TestUser, method: string, path: string, json?: unknown) =>
      teamCall(harness(), user, method, path, json),
    teamWorkflow: () => teamWorkflow(harness(), current!),
  };
}
