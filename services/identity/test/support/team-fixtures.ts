import { uniqueName } from '@platform/testing';
import type { IdentityHarness } from './harness.js';
import { createTestUser } from './rbac-users.js';

/** Fresh people for one test: no test reads a team or membership another test made. */
export async function people(harness: IdentityHarness) {
  return {
    owner: await createTestUser(harness, { name: 'towner' }),
    teamAdmin: await createTestUser(harness, { name: 'tadmin' }),
    member: await createTestUser(harness, { name: 'tmember' }),
    outsider: await createTestUser(harness, { name: 'toutsider' }),
  };
}

/** A team of its own (unique name) with an OWNER only, or also an ADMIN and a MEMBER. */
export async function newTeam(harness: IdentityHarness, withMembers = true) {
  const who = await people(harness);
  const created = await harness.request('POST', '/teams', {
    token: who.owner.token,
    json: { name: uniqueName('Team') },
  });
  if (created.body.code !== 0) throw new Error(`team not created: ${JSON.stringify(created.body)}`);
  const teamId: string = created.body.data.id;
  if (withMembers) {
    const { pool } = harness.identity.dependencies;
    await pool.query(
      `INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'ADMIN'), ($1, $3, 'MEMBER')`,
      [teamId, who.teamAdmin.id, who.member.id],
    );
  }
  return { teamId, ...who };
}
