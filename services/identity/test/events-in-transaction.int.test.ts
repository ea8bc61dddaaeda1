import { Topics } from '@platform/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from './support/rbac-users.js';
import { captureEvents, useIdentityHarness, type EventCapture } from './support/suite.js';

/**
 * Issue 7: identity's events are written to the outbox inside the state change's transaction. A
 * deferred constraint trigger makes the commit fail for events addressed to one marked user, after
 * the change and its event were both written: the change must roll back with the event (no
 * member added, nothing relayed), while an unmarked change always comes with its event.
 */
const harness = useIdentityHarness();
let owner: TestUser;
let doomed: TestUser;
let welcome: TestUser;
let teamId: string;
let events: EventCapture;

beforeAll(async () => {
  owner = await createTestUser(harness, { name: 'evowner' });
  doomed = await createTestUser(harness, { name: 'evdoomed' });
  welcome = await createTestUser(harness, { name: 'evwelcome' });
  const created = await harness.request('POST', '/teams', {
    token: owner.token,
    json: { name: `Events ${Date.now()}` },
  });
  teamId = created.body.data.id;
  events = await captureEvents(harness, 'events-in-tx', [Topics.NOTIFICATION_EVENTS]);
  await harness.identity.dependencies.pool.query(`
    CREATE FUNCTION test_refuse_marked_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.key = '${doomed.id}' THEN RAISE EXCEPTION 'test: commit refused'; END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER test_refuse_marked_event AFTER INSERT ON outbox
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_marked_event();`);
}, 60_000);

afterAll(async () => {
  await events?.stop();
});

async function isMember(userId: string): Promise<boolean> {
  const { rowCount } = await harness.identity.dependencies.pool.query(
    'SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2',
    [teamId, userId],
  );
  return (rowCount ?? 0) > 0;
}

describe('events inside the state change transaction', () => {
  it('a rolled-back change leaves no event; a committed one always has it', async () => {
    const refused = await harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: doomed.id, role: 'MEMBER' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await isMember(doomed.id)).toBe(false);

    const added = await harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: welcome.id, role: 'MEMBER' },
    });
    expect(added.body.code).toBe(0);
    expect(await isMember(welcome.id)).toBe(true);
    await events.waitFor(
      (e) => e.eventType === 'team.member_added' && (e.value as { user_id: string }).user_id === welcome.id,
      'the committed change has no event',
    );
    // Nothing for the refused user reached Kafka or waits in the outbox.
    expect(events.messages.filter((e) => (e.value as { user_id: string }).user_id === doomed.id)).toEqual([]);
    const { rowCount } = await harness.identity.dependencies.pool.query(
      'SELECT 1 FROM outbox WHERE key = $1',
      [doomed.id],
    );
    expect(rowCount).toBe(0);
  });
});
