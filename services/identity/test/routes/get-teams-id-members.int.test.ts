// GET /teams/{id} (gateway routes/identity-teams-routes.ts): who sees members' e-mails, and the
// member list's paging. The other /teams routes and their security: teams.int.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { useIdentityHarness } from '../support/suite.js';

/**
 * Issue 7: every user is in the default team, so `GET /teams/{id}` must not hand every account's
 * e-mail to any signed-in user. Members' e-mails are for the team's OWNER/ADMIN and global admins
 * (a member sees their own); the member list is paged with `page` and `page_size`.
 */
const harness = useIdentityHarness();
let owner: TestUser;
let teamAdmin: TestUser;
let member: TestUser;
let globalAdmin: TestUser;
const extra: TestUser[] = [];
let teamId: string;
let defaultTeamId: string;

type Member = { user_id: string; email: string | null; role: string };

beforeAll(async () => {
  owner = await createTestUser(harness, { name: 'pvowner' });
  teamAdmin = await createTestUser(harness, { name: 'pvadmin' });
  member = await createTestUser(harness, { name: 'pvmember' });
  globalAdmin = await createTestUser(harness, { roles: ['Admin'], name: 'pvglobal' });
  for (let i = 0; i < 3; i += 1) extra.push(await createTestUser(harness, { name: `pvextra${i}` }));
  const created = await harness.request('POST', '/teams', {
    token: owner.token,
    json: { name: `Privacy ${Date.now()}` },
  });
  teamId = created.body.data.id;
  const add = (user: TestUser, role: string) =>
    harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: user.id, role },
    });
  expect((await add(teamAdmin, 'ADMIN')).body.code).toBe(0);
  expect((await add(member, 'MEMBER')).body.code).toBe(0);
  for (const user of extra) expect((await add(user, 'MEMBER')).body.code).toBe(0);
  // What registration does for every new account (these users were inserted directly).
  const { pool } = harness.identity.dependencies;
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM teams WHERE is_default');
  defaultTeamId = rows[0]!.id;
  for (const user of [owner, teamAdmin, member, globalAdmin, ...extra]) {
    await pool.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'MEMBER')`, [
      defaultTeamId,
      user.id,
    ]);
  }
}, 60_000);

async function detail(token: string, id: string, query = '') {
  const res = await harness.request('GET', `/teams/${id}${query}`, { token });
  expect(res.body.code).toBe(0);
  return res.body.data as { members: Member[]; members_total: number; page: number; page_size: number };
}

describe('team member e-mails and paging', () => {
  it('a plain member sees only their own e-mail, in their team and in the default team', async () => {
    for (const id of [teamId, defaultTeamId]) {
      const { members } = await detail(member.token, id, '?page_size=100');
      expect(members.length).toBeGreaterThan(1);
      for (const m of members) expect(m.email).toBe(m.user_id === member.id ? member.email : null);
    }
  });

  it("the team's OWNER and ADMIN and a global admin see every member's e-mail", async () => {
    for (const token of [owner.token, teamAdmin.token, globalAdmin.token]) {
      const { members, members_total } = await detail(token, teamId, '?page_size=100');
      expect(members_total).toBe(6);
      const emails = Object.fromEntries(members.map((m) => [m.user_id, m.email]));
      for (const user of [owner, teamAdmin, member, ...extra]) expect(emails[user.id]).toBe(user.email);
    }
    // A team ADMIN of another team is a plain member of the default team.
    const { members } = await detail(teamAdmin.token, defaultTeamId, '?page_size=100');
    expect(members.filter((m) => m.email !== null).map((m) => m.user_id)).toEqual([teamAdmin.id]);
    // A global admin sees the default team's e-mails.
    const all = await detail(globalAdmin.token, defaultTeamId, '?page_size=100');
    expect(all.members.every((m) => m.email !== null)).toBe(true);
  });

  it('pages the members: page_size bounds the list, pages do not overlap, total counts all', async () => {
    const first = await detail(member.token, teamId, '?page=1&page_size=4');
    const second = await detail(member.token, teamId, '?page=2&page_size=4');
    expect(first).toMatchObject({ members_total: 6, page: 1, page_size: 4 });
    expect(first.members).toHaveLength(4);
    expect(second.members).toHaveLength(2);
    expect(first.members[0]).toMatchObject({ user_id: owner.id, role: 'OWNER' });
    const ids = [...first.members, ...second.members].map((m) => m.user_id);
    expect(new Set(ids).size).toBe(6);
    const defaults = await detail(member.token, teamId);
    expect(defaults).toMatchObject({ page: 1, page_size: 20 });
    const bad = await harness.request('GET', `/teams/${teamId}?page_size=101`, { token: member.token });
    expect(bad.status).toBe(422);
  });
});
