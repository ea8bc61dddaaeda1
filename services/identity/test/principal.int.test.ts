import { APPROVAL_STATUSES } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { useIdentityHarness } from './support/suite.js';

const harness = useIdentityHarness();

describe('identity schema and principal lookup', () => {
  it('seeds the three system roles with their permissions and the default team', async () => {
    const { pool } = harness.identity.dependencies;
    const { rows } = await pool.query(
      `SELECT r.name::text AS name, r.is_default, array_agg(rp.permission_code ORDER BY rp.permission_code) AS permissions
         FROM roles r JOIN role_permissions rp ON rp.role_id = r.id GROUP BY r.id ORDER BY r.name`,
    );
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['Super Admin'].permissions).toEqual(['*']);
    expect(byName.User.is_default).toBe(true);
    expect(byName.User.permissions).toEqual(
      expect.arrayContaining(['apikey:create', 'apikey:read', 'workflow:execute', 'workflow:update']),
    );
    expect(byName.User.permissions.some((p: string) => p.startsWith('admin:'))).toBe(false);
    expect(byName.Admin.permissions).toEqual(
      expect.arrayContaining(['admin:dashboard:access', 'apikey:delete']),
    );
    const teams = await pool.query('SELECT name::text FROM teams WHERE is_default');
    expect(teams.rows).toEqual([{ name: 'Default' }]);
  });

  it('resolves a user with its permissions and teams, and unknown ids as not found', async () => {
    const { pool } = harness.identity.dependencies;
    const { rows } = await pool.query(
      `INSERT INTO users (username, email, password_hash) VALUES ('pat', 'pat@example.com', 'x') RETURNING id`,
    );
    const userId = rows[0].id as string;
    await pool.query(`INSERT INTO user_roles SELECT $1, id FROM roles WHERE name = 'User'`, [userId]);
    await pool.query(`INSERT INTO team_members SELECT id, $1, 'MEMBER' FROM teams WHERE is_default`, [
      userId,
    ]);
    const identity = harness.gateway.clients.identity;
    const principal = await identity.call('getPrincipal', { user_id: userId });
    expect(principal).toMatchObject({
      found: true,
      user_id: userId,
      username: 'pat',
      is_active: true,
      approval_status: APPROVAL_STATUSES.toProto('approved'),
    });
    expect(principal.permissions).toContain('apikey:read');
    expect(principal.team_ids).toHaveLength(1);
    expect(
      await identity.call('getPrincipal', { user_id: '00000000-0000-4000-8000-000000000000' }),
    ).toMatchObject({
      found: false,
    });
    expect(await identity.call('getPrincipal', { user_id: 'not-a-uuid' })).toMatchObject({ found: false });
  });

  it('serves the gateway health route', async () => {
    const health = await harness.request('GET', '/health');
    expect(health.body.data).toEqual({ status: 'healthy' });
  });
});
