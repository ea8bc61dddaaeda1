// POST and GET /teams, GET and DELETE /teams/{id}, POST /teams/{id}/members, PUT and DELETE
// /teams/{id}/members/{user_id}, POST /teams/{id}/leave and /transfer-ownership (gateway
// routes/identity-teams-routes.ts): happy paths, team-level refusals, bad input and security.
// Member e-mails and paging of GET /teams/{id}: get-teams-id-members.int.test.ts.
import { Topics, type ConsumedMessage } from '@platform/kafka';
import { uniqueName } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { newTeam, people } from '../support/team-fixtures.js';
import { captureEvents, useIdentityHarness, type EventCapture } from '../support/suite.js';

const harness = useIdentityHarness();
let globalAdmin: TestUser;
let events: EventCapture;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  globalAdmin = await createTestUser(harness, { roles: ['Admin'], name: 'tglobal' });
  events = await captureEvents(harness, 'teams', [Topics.NOTIFICATION_EVENTS]);
}, 60_000);
afterAll(async () => {
  await events?.stop();
});

function waitForNotification(type: string, userId: string): Promise<ConsumedMessage> {
  return events.waitFor(
    (e) => e.eventType === type && (e.value as { user_id: string }).user_id === userId,
    `no ${type} for ${userId}`,
  );
}

const post = (path: string, token: string, json?: unknown) =>
  harness.request('POST', path, { token, json: json ?? {} });

describe('creating and reading teams', () => {
  it('creates a team with the caller as OWNER; 5102 for a taken name', async () => {
    const { owner, member } = await people(harness);
    const name = uniqueName('Platform Team');
    const res = await post('/teams', owner.token, { name, description: 'builds it' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name,
      my_role: 'OWNER',
      member_count: 1,
      is_default: false,
    });
    const taken = await post('/teams', member.token, { name: name.toLowerCase() });
    expect([taken.status, taken.body.code]).toEqual([400, 5102]);
  });

  it('lists the caller’s teams; global admins see every team', async () => {
    const { teamId, owner, outsider } = await newTeam(harness, false);
    const mine = await harness.request('GET', '/teams', { token: owner.token });
    expect(mine.body.data.items.map((t: { id: string }) => t.id)).toEqual([teamId]);
    const none = await harness.request('GET', '/teams', { token: outsider.token });
    expect(none.body.data).toMatchObject({ items: [], total: 0, page: 1, page_size: 20 });
    const all = await harness.request('GET', '/teams?page_size=100', { token: globalAdmin.token });
    const ids = all.body.data.items.map((t: { id: string }) => t.id);
    const { rows } = await harness.identity.dependencies.pool.query('SELECT id FROM teams WHERE is_default');
    expect(ids).toEqual(expect.arrayContaining([rows[0].id, teamId]));
    expect(all.body.data.items.find((t: { id: string }) => t.id === teamId).my_role).toBeNull();
  });

  it('shows members to members and global admins; 3002 to others; 4004 when unknown', async () => {
    const { teamId, owner, outsider } = await newTeam(harness, false);
    const detail = await harness.request('GET', `/teams/${teamId}`, { token: owner.token });
    expect(detail.body.data).toMatchObject({ id: teamId, members: [{ user_id: owner.id, role: 'OWNER' }] });
    const admin = await harness.request('GET', `/teams/${teamId}`, { token: globalAdmin.token });
    expect(admin.body.code).toBe(0);
    const denied = await harness.request('GET', `/teams/${teamId}`, { token: outsider.token });
    expect([denied.status, denied.body.code]).toEqual([403, 3002]);
    const missing = await harness.request('GET', `/teams/${MISSING}`, { token: owner.token });
    expect([missing.status, missing.body.code]).toEqual([404, 4004]);
  });

  it('rejects bad create bodies, bad ids and paging', async () => {
    const { owner } = await people(harness);
    for (const json of [
      {},
      { name: '' },
      { name: '  ' },
      { name: 'x'.repeat(101) },
      { name: 1 },
      { name: 'a', description: 'd'.repeat(501) },
    ]) {
      const res = await post('/teams', owner.token, json);
      expect([res.status, res.body.code], JSON.stringify(json).slice(0, 60)).toEqual([422, 1001]);
    }
    expect((await harness.request('GET', '/teams/xyz', { token: owner.token })).status).toBe(422);
    expect((await harness.request('GET', '/teams?page_size=101', { token: owner.token })).status).toBe(422);
    expect((await harness.request('GET', '/teams')).body.code).toBe(2000);
  });
});

describe('members', () => {
  it('OWNER adds an ADMIN and a MEMBER; notifications go to the added users', async () => {
    const { teamId, owner, teamAdmin, member } = await newTeam(harness, false);
    const admin = await post(`/teams/${teamId}/members`, owner.token, {
      user_id: teamAdmin.id,
      role: 'ADMIN',
    });
    expect(admin.body.data).toMatchObject({
      user_id: teamAdmin.id,
      role: 'ADMIN',
      username: teamAdmin.username,
    });
    const plain = await post(`/teams/${teamId}/members`, teamAdmin.token, {
      user_id: member.id,
      role: 'MEMBER',
    });
    expect(plain.body.data.role).toBe('MEMBER');
    const event = await waitForNotification('team.member_added', member.id);
    expect(event.value).toMatchObject({ scope: 'user', team_id: teamId, data: { role: 'MEMBER' } });
  });

  it('add: 3003 for plain members, 5206 as OWNER, 5103 when already a member, 4001 unknown user, 4004', async () => {
    const { teamId, owner, member, outsider } = await newTeam(harness);
    const byMember = await post(`/teams/${teamId}/members`, member.token, {
      user_id: outsider.id,
      role: 'MEMBER',
    });
    expect([byMember.status, byMember.body.code]).toEqual([403, 3003]);
    const asOwner = await post(`/teams/${teamId}/members`, owner.token, {
      user_id: outsider.id,
      role: 'OWNER',
    });
    expect([asOwner.status, asOwner.body.code]).toEqual([400, 5206]);
    const again = await post(`/teams/${teamId}/members`, owner.token, { user_id: member.id, role: 'MEMBER' });
    expect([again.status, again.body.code]).toEqual([400, 5103]);
    const ghost = await post(`/teams/${teamId}/members`, owner.token, { user_id: MISSING, role: 'MEMBER' });
    expect([ghost.status, ghost.body.code]).toEqual([404, 4001]);
    const noTeam = await post(`/teams/${MISSING}/members`, owner.token, {
      user_id: member.id,
      role: 'MEMBER',
    });
    expect(noTeam.body.code).toBe(4004);
  });

  it('add: bad bodies are 422', async () => {
    const { teamId, owner, member } = await newTeam(harness);
    for (const json of [
      {},
      { user_id: member.id },
      { user_id: 'x', role: 'MEMBER' },
      { user_id: member.id, role: 'GUEST' },
      { user_id: member.id, role: 'member' },
    ]) {
      const res = await post(`/teams/${teamId}/members`, owner.token, json);
      expect([res.status, res.body.code], JSON.stringify(json)).toEqual([422, 1001]);
    }
  });

  it('changes roles: 5207 owner, 5208 to OWNER, 4005 not a member, 3003 for members', async () => {
    const { teamId, owner, teamAdmin, member, outsider } = await newTeam(harness);
    const promoted = await harness.request('PUT', `/teams/${teamId}/members/${member.id}`, {
      token: owner.token,
      json: { role: 'ADMIN' },
    });
    expect(promoted.body.data.role).toBe('ADMIN');
    await waitForNotification('team.role_changed', member.id);
    const back = await harness.request('PUT', `/teams/${teamId}/members/${member.id}`, {
      token: teamAdmin.token,
      json: { role: 'MEMBER' },
    });
    expect(back.body.data.role).toBe('MEMBER');
    const ownerRole = await harness.request('PUT', `/teams/${teamId}/members/${owner.id}`, {
      token: teamAdmin.token,
      json: { role: 'MEMBER' },
    });
    expect([ownerRole.status, ownerRole.body.code]).toEqual([400, 5207]);
    const toOwner = await harness.request('PUT', `/teams/${teamId}/members/${member.id}`, {
      token: owner.token,
      json: { role: 'OWNER' },
    });
    expect([toOwner.status, toOwner.body.code]).toEqual([400, 5208]);
    const stranger = await harness.request('PUT', `/teams/${teamId}/members/${outsider.id}`, {
      token: owner.token,
      json: { role: 'ADMIN' },
    });
    expect([stranger.status, stranger.body.code]).toEqual([404, 4005]);
    const byMember = await harness.request('PUT', `/teams/${teamId}/members/${teamAdmin.id}`, {
      token: member.token,
      json: { role: 'MEMBER' },
    });
    expect([byMember.status, byMember.body.code]).toEqual([403, 3003]);
    for (const json of [{}, { role: 'BOSS' }, { role: 3 }]) {
      const res = await harness.request('PUT', `/teams/${teamId}/members/${member.id}`, {
        token: owner.token,
        json,
      });
      expect([res.status, res.body.code]).toEqual([422, 1001]);
    }
    const badUser = await harness.request('PUT', `/teams/${teamId}/members/nope`, {
      token: owner.token,
      json: { role: 'ADMIN' },
    });
    expect(badUser.status).toBe(422);
  });

  it('removes members: 5209 owner, 4005 not a member, 3003 for members; global admins may manage', async () => {
    const { teamId, owner, teamAdmin, member, outsider } = await newTeam(harness);
    const ownerGone = await harness.request('DELETE', `/teams/${teamId}/members/${owner.id}`, {
      token: teamAdmin.token,
    });
    expect([ownerGone.status, ownerGone.body.code]).toEqual([400, 5209]);
    const byMember = await harness.request('DELETE', `/teams/${teamId}/members/${teamAdmin.id}`, {
      token: member.token,
    });
    expect(byMember.body.code).toBe(3003);
    const stranger = await harness.request('DELETE', `/teams/${teamId}/members/${outsider.id}`, {
      token: owner.token,
    });
    expect(stranger.body.code).toBe(4005);
    const added = await post(`/teams/${teamId}/members`, globalAdmin.token, {
      user_id: outsider.id,
      role: 'MEMBER',
    });
    expect(added.body.code).toBe(0);
    const removed = await harness.request('DELETE', `/teams/${teamId}/members/${outsider.id}`, {
      token: teamAdmin.token,
    });
    expect(removed.body.data).toEqual({ team_id: teamId, user_id: outsider.id });
    await waitForNotification('team.member_removed', outsider.id);
    const badIds = await harness.request('DELETE', `/teams/x/members/y`, { token: owner.token });
    expect(badIds.body.data.errors).toHaveProperty('id');
    expect(badIds.body.data.errors).toHaveProperty('user_id');
  });
});

describe('leave and transfer ownership', () => {
  it('leave: 5210 for the owner, 3002 with HTTP 404 for non-members, ok for members', async () => {
    const { teamId, owner, outsider } = await newTeam(harness);
    const ownerLeaves = await post(`/teams/${teamId}/leave`, owner.token);
    expect([ownerLeaves.status, ownerLeaves.body.code]).toEqual([400, 5210]);
    const stranger = await post(`/teams/${teamId}/leave`, outsider.token);
    expect([stranger.status, stranger.body.code]).toEqual([404, 3002]);
    const extra = await createTestUser(harness, { name: 'leaver' });
    await post(`/teams/${teamId}/members`, owner.token, { user_id: extra.id, role: 'MEMBER' });
    const left = await post(`/teams/${teamId}/leave`, extra.token);
    expect(left.body).toMatchObject({ code: 0, data: { team_id: teamId } });
    expect((await harness.request('GET', `/teams/${teamId}`, { token: extra.token })).body.code).toBe(3002);
    expect((await post(`/teams/${MISSING}/leave`, owner.token)).body.code).toBe(4004);
    expect((await post('/teams/bad/leave', owner.token)).status).toBe(422);
  });

  it('transfer: 3004 for non-owners, 4005 for non-members; the old owner becomes ADMIN', async () => {
    const { teamId, owner, teamAdmin, member, outsider } = await newTeam(harness);
    const byAdmin = await post(`/teams/${teamId}/transfer-ownership`, teamAdmin.token, {
      user_id: member.id,
    });
    expect([byAdmin.status, byAdmin.body.code]).toEqual([403, 3004]);
    const toStranger = await post(`/teams/${teamId}/transfer-ownership`, owner.token, {
      user_id: outsider.id,
    });
    expect([toStranger.status, toStranger.body.code]).toEqual([404, 4005]);
    for (const json of [{}, { user_id: 'x' }, { user_id: 5 }]) {
      const res = await post(`/teams/${teamId}/transfer-ownership`, owner.token, json);
      expect([res.status, res.body.code]).toEqual([422, 1001]);
    }
    const res = await post(`/teams/${teamId}/transfer-ownership`, owner.token, { user_id: member.id });
    expect(res.body.code).toBe(0);
    const roles = Object.fromEntries(
      res.body.data.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role]),
    );
    expect(roles[member.id]).toBe('OWNER');
    expect(roles[owner.id]).toBe('ADMIN');
    await waitForNotification('team.ownership_transferred', member.id);
    const oldOwnerLeaves = await post(`/teams/${teamId}/leave`, owner.token);
    expect(oldOwnerLeaves.body.code).toBe(0);
  });
});

describe('deleting teams', () => {
  it('5205 for the default team, 3004 for non-owners, ok for the owner', async () => {
    const { teamId, owner, teamAdmin } = await newTeam(harness);
    const { rows } = await harness.identity.dependencies.pool.query('SELECT id FROM teams WHERE is_default');
    const defaultTeam = await harness.request('DELETE', `/teams/${rows[0].id}`, { token: globalAdmin.token });
    expect([defaultTeam.status, defaultTeam.body.code]).toEqual([400, 5205]);
    const byAdmin = await harness.request('DELETE', `/teams/${teamId}`, { token: teamAdmin.token });
    expect(byAdmin.body.code).toBe(3004);
    const ok = await harness.request('DELETE', `/teams/${teamId}`, { token: owner.token });
    expect(ok.body).toMatchObject({ code: 0, data: { team_id: teamId } });
    expect((await harness.request('GET', `/teams/${teamId}`, { token: owner.token })).body.code).toBe(4004);
    expect((await harness.request('DELETE', '/teams/zzz', { token: owner.token })).status).toBe(422);
  });
});

// Teams need no global permission; the team-level refusals (3002-3004) are tested above.
describeRouteSecurity(() => harness, /^\/teams/);
