import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { TEAM_ROLE_SET, type TeamRoleName } from '@platform/contracts';
import { TeamRole } from '@platform/contracts/platform/identity/v1/enums';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClientsAs } from './support/internal-clients.js';
import { createTestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';
import { newTeam } from './support/team-fixtures.js';

// DirectoryService (proto/platform/identity/v1/directory.proto) over real gRPC with service
// tokens, on the harness's own database.
const harness = useIdentityHarness();
type Clients = ReturnType<typeof identityClientsAs>;
let notifications: Clients;
beforeAll(() => {
  notifications = identityClientsAs(harness.grpcAddress, { service: 'notifications' });
});
afterAll(() => notifications.close());

const INVALID = { code: 1001, httpStatus: 422 };
const FORBIDDEN = { code: 3000, httpStatus: 403 };

/** `count` users inserted in one statement; returns their ids. */
async function insertUsers(count: number, active: boolean, prefix: string): Promise<string[]> {
  const { rows } = await harness.identity.dependencies.pool.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash, is_active)
     SELECT $1 || n, $1 || n || '@example.com', 'x', $2 FROM generate_series(1, $3) AS n RETURNING id`,
    [`${prefix}${randomUUID().slice(0, 8)}_`, active, count],
  );
  return rows.map((r) => r.id);
}

/**
 * GetTeamMembership with the role read back as its name ('' when the field is absent), the way the
 * callers' adapters read it (memberRoleOf): the wire carries the TeamRole enum.
 */
async function membership(team_id: string, user_id: string) {
  const record = await notifications.directory.call('getTeamMembership', { team_id, user_id });
  return { ...record, role: record.role === undefined ? '' : (TEAM_ROLE_SET.fromProto(record.role) ?? '?') };
}

/** Every page of a listing, following next_cursor until it is empty. */
async function allPages(read: (cursor: string) => Promise<{ user_ids: string[]; next_cursor: string }>) {
  const ids: string[] = [];
  let pages = 0;
  let cursor = '';
  do {
    const page = await read(cursor);
    ids.push(...page.user_ids);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== '' && pages < 1000);
  return { ids, pages };
}

describe('GetUserContacts', () => {
  it('answers email, locale (empty when unset) and is_active; unknown ids are left out', async () => {
    const withLocale = await createTestUser(harness, { name: 'contact_zh' });
    const plain = await createTestUser(harness, { name: 'contact_plain' });
    const { pool } = harness.identity.dependencies;
    await pool.query(`UPDATE users SET locale = 'zh', is_active = false WHERE id = $1`, [withLocale.id]);
    const { users } = await notifications.directory.call('getUserContacts', {
      ids: [withLocale.id, plain.id, randomUUID(), plain.id.toUpperCase()],
    });
    const byId = new Map(users.map((u) => [u.id, u]));
    expect(users).toHaveLength(2);
    expect(byId.get(withLocale.id)).toEqual({
      id: withLocale.id,
      username: withLocale.username,
      email: withLocale.email,
      locale: 'zh',
      is_active: false,
    });
    expect(byId.get(plain.id)).toMatchObject({ email: plain.email, locale: '', is_active: true });
    expect((await notifications.directory.call('getUserContacts', { ids: [] })).users).toEqual([]);
  });

  it('takes 1000 ids and refuses 1001 or a malformed id with 1001 / INVALID_ARGUMENT', async () => {
    const ids: string[] = Array.from({ length: 1000 }, () => randomUUID());
    const [known] = await insertUsers(1, true, 'thousand');
    ids[999] = known!;
    expect((await notifications.directory.call('getUserContacts', { ids })).users.map((u) => u.id)).toEqual([
      known,
    ]);
    await expect(
      notifications.directory.call('getUserContacts', { ids: [...ids, randomUUID()] }),
    ).rejects.toMatchObject(INVALID);
    await expect(
      notifications.directory.call('getUserContacts', { ids: [known!, 'not-a-uuid'] }),
    ).rejects.toMatchObject({ ...INVALID, data: { errors: { ids: ['ids[1] must be a UUID'] } } });
  });
});

describe('GetTeamMembership', () => {
  it('answers existence, name and the role; empty role for a non-member or no user', async () => {
    const team = await newTeam(harness);
    const { rows } = await harness.identity.dependencies.pool.query<{ name: string }>(
      'SELECT name::text AS name FROM teams WHERE id = $1',
      [team.teamId],
    );
    const ask = (user_id: string) => membership(team.teamId, user_id);
    const name = rows[0]!.name;
    expect(await ask(team.owner.id)).toEqual({ team_exists: true, team_name: name, role: 'OWNER' });
    expect(await ask(team.teamAdmin.id)).toMatchObject({ role: 'ADMIN' });
    expect(await ask(team.member.id)).toMatchObject({ role: 'MEMBER' });
    expect(await ask(team.outsider.id)).toEqual({ team_exists: true, team_name: name, role: '' });
    expect(await ask('')).toEqual({ team_exists: true, team_name: name, role: '' });
    expect(await ask(randomUUID())).toMatchObject({ team_exists: true, role: '' });
    expect(await membership(randomUUID(), '')).toEqual({ team_exists: false, team_name: '', role: '' });
  });

  it('refuses a malformed team or user id with 1001 / INVALID_ARGUMENT', async () => {
    const call = (team_id: string, user_id: string) =>
      notifications.directory.call('getTeamMembership', { team_id, user_id });
    await expect(call('', '')).rejects.toMatchObject(INVALID);
    await expect(call('team-1', '')).rejects.toMatchObject(INVALID);
    await expect(call(randomUUID(), 'bob')).rejects.toMatchObject(INVALID);
  });
});

describe('ListTeamMemberIds', () => {
  it('pages a team of 1203 members completely and without duplicates, with a roles filter', async () => {
    const team = await newTeam(harness);
    const extra = await insertUsers(1200, true, 'member');
    await harness.identity.dependencies.pool.query(
      `INSERT INTO team_members (team_id, user_id, role) SELECT $1, unnest($2::uuid[]), 'MEMBER'`,
      [team.teamId, extra],
    );
    const everyone = [team.owner.id, team.teamAdmin.id, team.member.id, ...extra];
    const list = (roles: TeamRoleName[], limit: number) => (cursor: string) =>
      notifications.directory.call('listTeamMemberIds', {
        team_id: team.teamId,
        roles: roles.map((role) => TEAM_ROLE_SET.toProto(role)),
        cursor,
        limit,
      });

    const paged = await allPages(list([], 250));
    expect(paged.pages).toBe(5);
    expect(new Set(paged.ids).size).toBe(paged.ids.length);
    expect([...paged.ids].sort()).toEqual([...everyone].sort());
    // limit 0 = 500 a page: three pages.
    expect((await allPages(list([], 0))).pages).toBe(3);
    const first = await list([], 0)('');
    expect(first).toMatchObject({ found: true });
    expect(first.user_ids).toHaveLength(500);

    const leaders = await allPages(list(['OWNER', 'ADMIN'], 1));
    expect(leaders.ids.sort()).toEqual([team.owner.id, team.teamAdmin.id].sort());
    expect(leaders.pages).toBe(2);
  });

  it('says found=false for an unknown team and found=true for a team with no one in the roles', async () => {
    expect(
      await notifications.directory.call('listTeamMemberIds', {
        team_id: randomUUID(),
        roles: [],
        cursor: '',
        limit: 10,
      }),
    ).toEqual({ found: false, user_ids: [], next_cursor: '' });
    const lonely = await newTeam(harness, false);
    expect(
      await notifications.directory.call('listTeamMemberIds', {
        team_id: lonely.teamId,
        roles: [TeamRole.TEAM_ROLE_ADMIN],
        cursor: '',
        limit: 10,
      }),
    ).toEqual({ found: true, user_ids: [], next_cursor: '' });
  });

  it('refuses bad limits, roles, team ids and cursors with 1001 / INVALID_ARGUMENT', async () => {
    const team = await newTeam(harness, false);
    const base = { team_id: team.teamId, roles: [] as TeamRole[], cursor: '', limit: 10 };
    const call = (changes: Partial<typeof base>) =>
      notifications.directory.call('listTeamMemberIds', { ...base, ...changes });
    for (const limit of [-1, 1001, 2 ** 31 - 1]) await expect(call({ limit })).rejects.toMatchObject(INVALID);
    // A role outside the enum (unspecified, or a number this build does not know) is refused.
    for (const role of [TeamRole.TEAM_ROLE_UNSPECIFIED, 99 as TeamRole])
      await expect(call({ roles: [role] })).rejects.toMatchObject(INVALID);
    await expect(call({ team_id: 'x' })).rejects.toMatchObject(INVALID);
    await expect(call({ cursor: 'garbage!' })).rejects.toMatchObject(INVALID);
    // A cursor of another list is not accepted here.
    const users = await notifications.directory.call('listActiveUserIds', { cursor: '', limit: 1 });
    await expect(call({ cursor: users.next_cursor })).rejects.toMatchObject(INVALID);
    expect(await call({ limit: 1000 })).toMatchObject({ found: true });
  });
});

describe('ListActiveUserIds', () => {
  it('pages every active user exactly once and leaves inactive users out', async () => {
    await insertUsers(130, true, 'active');
    const inactive = await insertUsers(20, false, 'inactive');
    const { rows } = await harness.identity.dependencies.pool.query<{ id: string }>(
      'SELECT id FROM users WHERE is_active',
    );
    const paged = await allPages((cursor) =>
      notifications.directory.call('listActiveUserIds', { cursor, limit: 40 }),
    );
    expect(paged.pages).toBe(Math.ceil(rows.length / 40));
    expect(new Set(paged.ids).size).toBe(paged.ids.length);
    expect([...paged.ids].sort()).toEqual(rows.map((r) => r.id).sort());
    expect(paged.ids.some((id) => inactive.includes(id))).toBe(false);
    await expect(
      notifications.directory.call('listActiveUserIds', { cursor: '', limit: 1001 }),
    ).rejects.toMatchObject(INVALID);
  });
});

describe('only the declared callers reach DirectoryService', () => {
  const allowed = {
    getUserContacts: ['notifications'],
    getTeamMembership: ['notifications', 'models', 'workflows'],
    listTeamMemberIds: ['notifications', 'models'],
    listActiveUserIds: ['notifications'],
  } as const;
  const calls = {
    getUserContacts: (c: Clients) => c.directory.call('getUserContacts', { ids: [] }),
    getTeamMembership: (c: Clients) =>
      c.directory.call('getTeamMembership', { team_id: randomUUID(), user_id: '' }),
    listTeamMemberIds: (c: Clients) =>
      c.directory.call('listTeamMemberIds', { team_id: randomUUID(), roles: [], cursor: '', limit: 1 }),
    listActiveUserIds: (c: Clients) => c.directory.call('listActiveUserIds', { cursor: '', limit: 1 }),
  };
  // Callers identity holds a key of (any of its internal methods); observability is none of them.
  const services = ['gateway', 'apikeys', 'notifications', 'models', 'workflows'];

  it('serves each method to its callers and refuses every other service 403 / 3000', async () => {
    // A service identity trusts for no method at all is refused before any table: 401 / 2001.
    const stranger = identityClientsAs(harness.grpcAddress, { service: 'observability' });
    try {
      for (const [method, call] of Object.entries(calls)) {
        await expect(call(stranger), `observability → ${method}`).rejects.toMatchObject({ code: 2001 });
      }
    } finally {
      stranger.close();
    }
    for (const service of services) {
      const clients = identityClientsAs(harness.grpcAddress, { service });
      try {
        for (const [method, call] of Object.entries(calls)) {
          const callers: readonly string[] = allowed[method as keyof typeof allowed];
          if (callers.includes(service)) await expect(call(clients)).resolves.toBeDefined();
          else await expect(call(clients), `${service} → ${method}`).rejects.toMatchObject(FORBIDDEN);
        }
      } finally {
        clients.close();
      }
    }
  });

  it('refuses a call without a service token 401 / 2001', async () => {
    const clients = identityClientsAs(harness.grpcAddress, {
      service: 'notifications',
      // A key identity does not trust for notifications (a stranger's).
      serviceSigningKey: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    });
    try {
      await expect(calls.getUserContacts(clients)).rejects.toMatchObject({ code: 2001 });
    } finally {
      clients.close();
    }
  });
});
