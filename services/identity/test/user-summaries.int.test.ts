import { describe, expect, it } from 'vitest';
import { identityClientsAs } from './support/internal-clients.js';
import { useIdentityHarness } from './support/suite.js';

const harness = useIdentityHarness();

describe('IdentityService.GetUsers (owner names for other services)', () => {
  it('returns id and username of known users and leaves unknown and malformed ids out', async () => {
    const { pool } = harness.identity.dependencies;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO users (username, email, password_hash) VALUES ('summary_a', 'summary_a@example.com', 'x'),
              ('summary_b', 'summary_b@example.com', 'x') RETURNING id`,
    );
    const [a, b] = rows.map((r) => r.id);
    // apikeys is the declared caller of GetUsers (owner names of keys).
    const apikeys = identityClientsAs(harness.grpcAddress, { service: 'apikeys' });
    const { users } = await apikeys.identity.call('getUsers', {
      ids: [a!, b!, a!, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'],
    });
    expect(users.sort((x, y) => x.username.localeCompare(y.username))).toEqual([
      { id: a, username: 'summary_a' },
      { id: b, username: 'summary_b' },
    ]);
    expect((await apikeys.identity.call('getUsers', { ids: [] })).users).toEqual([]);
    apikeys.close();
  });
});
