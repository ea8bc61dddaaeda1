import { Topics, type ConsumedMessage } from '@platform/kafka';
import { DailyTask } from '@platform/runtime';
import { testClock, uniqueName, waitUntil } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkPasswordExpiration } from '../src/domain/passwords/check-password-expiration.js';
import { createTestUser } from './support/rbac-users.js';
import { captureEvents, useIdentityHarness, type EventCapture } from './support/suite.js';

// tasks.check_password_expiration against the real database, its outbox and Kafka, with a test
// clock set to a fixed server-time morning.
const harness = useIdentityHarness();
const DAY = 86_400_000;
const MAX_AGE_DAYS = 90;
let events: EventCapture;
const clock = testClock();

/** Server-time (local) dates, like the check itself. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);
const setClock = (date: Date) => {
  clock.reset();
  clock.advance(date.getTime() - clock.now());
};

beforeAll(async () => {
  events = await captureEvents(harness, 'password-expiry', [Topics.NOTIFICATION_EVENTS]);
});
afterAll(async () => {
  await events?.stop();
});
beforeEach(async () => {
  // Only the users a test creates have passwords that can expire at its dates.
  await harness.identity.dependencies.pool.query('UPDATE users SET is_active = false');
  await harness.setSettings({ password_max_age_days: MAX_AGE_DAYS, password_expiration_warning_days: 7 });
});

/** An active user whose password expires at `expiresAt` (set MAX_AGE_DAYS before it). */
async function userExpiringAt(
  name: string,
  expiresAt: Date,
  changes: { active?: boolean; sso?: boolean } = {},
) {
  const user = await createTestUser(harness, { name });
  await harness.identity.dependencies.pool.query(
    `UPDATE users SET password_changed_at = $2, is_active = $3,
            password_hash = CASE WHEN $4 THEN NULL ELSE password_hash END WHERE id = $1`,
    [
      user.id,
      new Date(expiresAt.getTime() - MAX_AGE_DAYS * DAY),
      changes.active ?? true,
      changes.sso ?? false,
    ],
  );
  return user.id;
}

type Notice = { id: string; type: string; user_id: string; scope: string; data: { days_remaining: number } };
const noticeOf = (m: ConsumedMessage) => m.value as Notice;

/** The notices for `userIds` once `count` arrived and nothing more followed; then forgets them. */
async function noticesSettled(userIds: string[], count: number): Promise<Notice[]> {
  const mine = () => events.messages.map(noticeOf).filter((n) => userIds.includes(n.user_id));
  await waitUntil(() => (mine().length >= count ? true : undefined), 15_000, `fewer than ${count} notices`);
  await new Promise((r) => setTimeout(r, 700)); // nothing more may arrive
  const settled = mine();
  events.clear();
  return settled;
}

const run = () => checkPasswordExpiration(harness.identity.dependencies, clock.date());

describe('tasks.check_password_expiration', () => {
  it('reminds at exactly 7, 3 and 1 days, notices expired passwords, each once per password', async () => {
    setClock(local(2030, 6, 15, 8, 0));
    const ids = {
      seven: await userExpiringAt('pwseven', local(2030, 6, 22, 23, 0)),
      three: await userExpiringAt('pwthree', local(2030, 6, 18, 0, 30)),
      one: await userExpiringAt('pwone', local(2030, 6, 16, 7, 0)),
      five: await userExpiringAt('pwfive', local(2030, 6, 20, 12, 0)),
      laterToday: await userExpiringAt('pwlater', local(2030, 6, 15, 18, 0)),
      expired: await userExpiringAt('pwexpired', local(2030, 6, 14, 10, 0)),
      inactive: await userExpiringAt('pwinactive', local(2030, 6, 22, 10, 0), { active: false }),
      sso: await userExpiringAt('pwsso', local(2030, 6, 22, 10, 0), { sso: true }),
    };
    const all = Object.values(ids);
    expect(await run()).toEqual({ expiring_sent: 3, expired_sent: 1 });
    const first = await noticesSettled(all, 4);
    expect(first.map((n) => `${n.type}:${n.user_id}:${n.data.days_remaining}`).sort()).toEqual(
      [
        `password.expiring:${ids.seven}:7`,
        `password.expiring:${ids.three}:3`,
        `password.expiring:${ids.one}:1`,
        `password.expired:${ids.expired}:0`,
      ].sort(),
    );
    expect(first.every((n) => n.scope === 'user' && n.id.startsWith(`${n.type}:${n.user_id}:`))).toBe(true);

    clock.advance(5 * 60_000); // the same morning again: nothing new
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 0 });
    setClock(local(2030, 6, 16, 8, 0)); // next day: `later today` and `one` have expired
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 2 });
    const next = await noticesSettled(all, 2);
    expect(next.map((n) => n.user_id).sort()).toEqual([ids.laterToday, ids.one].sort());
    // Later the rest have expired (`seven`, `three`, `five`); expired stays expired: no second one.
    setClock(local(2030, 6, 25, 8, 0));
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 3 });
    expect((await noticesSettled(all, 3)).map((n) => n.user_id).sort()).toEqual(
      [ids.seven, ids.three, ids.five].sort(),
    );
    setClock(local(2030, 7, 25, 8, 0));
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 0 });
  });

  it('only thresholds inside password_expiration_warning_days; nothing while passwords never expire', async () => {
    setClock(local(2031, 2, 10, 8, 0));
    const seven = await userExpiringAt('warnseven', local(2031, 2, 17, 12, 0));
    const three = await userExpiringAt('warnthree', local(2031, 2, 13, 12, 0));
    await harness.setSettings({ password_max_age_days: 0 });
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 0 });
    await harness.setSettings({ password_max_age_days: MAX_AGE_DAYS, password_expiration_warning_days: 3 });
    expect(await run()).toEqual({ expiring_sent: 1, expired_sent: 0 });
    const sent = await noticesSettled([seven, three], 1);
    expect(sent.map((n) => n.user_id)).toEqual([three]);
    await harness.setSettings({ password_expiration_warning_days: 0 });
    setClock(local(2031, 2, 12, 8, 0)); // `three` at 1 day: outside a zero window
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 0 });
  });

  it('starts over for a new password: its own notices, the old claims forgotten', async () => {
    setClock(local(2032, 1, 10, 8, 0));
    const id = await userExpiringAt('pwchanged', local(2032, 1, 9, 12, 0));
    expect(await run()).toEqual({ expiring_sent: 0, expired_sent: 1 });
    const { pool } = harness.identity.dependencies;
    // A new password set 87 days before the clock: it expires in 3 days.
    await pool.query('UPDATE users SET password_changed_at = $2 WHERE id = $1', [
      id,
      new Date(clock.now() - (MAX_AGE_DAYS - 3) * DAY),
    ]);
    expect(await run()).toEqual({ expiring_sent: 1, expired_sent: 0 });
    const sent = await noticesSettled([id], 2);
    expect(sent.map((n) => `${n.type}:${n.data.days_remaining}`).sort()).toEqual(
      ['password.expired:0', 'password.expiring:3'].sort(),
    );
    // Distinct idempotency keys for the two passwords.
    expect(new Set(sent.map((n) => n.id)).size).toBe(2);
    const claims = await pool.query('SELECT kind FROM password_expiry_notices WHERE user_id = $1', [id]);
    expect(claims.rows).toEqual([{ kind: 'expiring' }]);
  });

  it('a parallel burst of runs and of replicas sends each notice once, and one replica takes the slot', async () => {
    setClock(local(2033, 4, 20, 8, 0));
    const ids = await Promise.all([
      ...[7, 3, 1].map((d, i) => userExpiringAt(`burst${i}`, new Date(clock.now() + d * DAY + 3_600_000))),
      userExpiringAt('burstexpired', new Date(clock.now() - DAY)),
    ]);
    const { dependencies } = harness.identity;
    /** identity's DailyTask as each replica builds it, in lock key space `lockPrefix`. */
    const replica = (lockPrefix: string) =>
      new DailyTask({
        name: 'tasks.check_password_expiration',
        at: '08:00',
        redis: dependencies.redis,
        lockPrefix,
        logger: dependencies.logger,
        run: () => checkPasswordExpiration(dependencies, clock.date()),
      });
    const cluster = `${uniqueName('test')}:lock:`;
    const [a, b] = [replica(cluster), replica(cluster)];
    // 20 direct runs and 10 slot firings on two replicas, all at once.
    const [results, slots] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => run())),
      Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).runSlot(clock.date()))),
    ]);
    expect(slots.filter(Boolean)).toHaveLength(1);
    // Replicas that do not share a lock (e.g. Redis lost the key) still send nothing new.
    const unlocked = [replica(`${uniqueName('test')}:lock:`), replica(`${uniqueName('test')}:lock:`)];
    expect(await Promise.all(unlocked.map((r) => r.runSlot(clock.date())))).toEqual([true, true]);
    const claims = await dependencies.pool.query(
      'SELECT count(*)::int AS n FROM password_expiry_notices WHERE user_id = ANY($1::uuid[])',
      [ids],
    );
    expect(claims.rows[0].n).toBe(4);
    expect(results.reduce((sum, r) => sum + r.expiring_sent + r.expired_sent, 0)).toBeLessThanOrEqual(4);
    const sent = await noticesSettled(ids, 4);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((n) => n.id)).size).toBe(4);
  });
});
