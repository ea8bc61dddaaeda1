import { beforeEach, describe, expect, it } from 'vitest';
import {
  login,
  registerActiveAccount,
  PASSWORD_ONLY_SETTINGS,
  type RegisteredAccount,
} from './support/auth-accounts.js';
import { useIdentityHarness } from './support/suite.js';

/**
 * The lockout budget under parallel bursts (issue 7): every attempt takes its place in the budget
 * atomically before its password is checked, so a burst gets no more checks than a sequential
 * run, and a right password in the burst neither gets a token past the lock nor lifts it.
 */
const harness = useIdentityHarness({ firstUser: true });

const MAX = 5;
const BURST_WRONG = 40;

let account: RegisteredAccount;
beforeEach(async () => {
  account = await registerActiveAccount(harness, 'burst');
  await harness.setSettings({ ...PASSWORD_ONLY_SETTINGS, max_login_attempts: MAX });
});

const db = () => harness.identity.dependencies.pool;

/** How many `login.failure` audit rows of the account carry each reason. */
async function failureReasons(userId: string): Promise<Record<string, number>> {
  const { rows } = await db().query<{ reason: string; n: number }>(
    `SELECT details->>'reason' AS reason, count(*)::int AS n FROM audit_log
      WHERE action = 'login.failure' AND target_id = $1 GROUP BY 1`,
    [userId],
  );
  return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
}

function tally(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

describe('password login lockout under a parallel burst', () => {
  it(`${BURST_WRONG} wrong passwords and the right one at once: exactly max_login_attempts are checked, no token, the account stays locked`, async () => {
    const attempts = [
      ...Array.from({ length: BURST_WRONG }, (_, i) => login(harness, account.username, `wrong-pass-${i}`)),
      login(harness, account.username, account.password),
    ];
    const results = await Promise.all(attempts);
    const codes = results.map((r) => r.body.code);
    const reasons = await failureReasons(account.id);

    // No full token: every answer is a wrong password or the lock.
    expect(codes.every((code) => code === 2003 || code === 5300)).toBe(true);
    expect(results.every((r) => r.status === 400)).toBe(true);
    // Exactly max_login_attempts attempts had their password checked (the right one, if it got
    // a place, was refused because the burst locked the account meanwhile); all others were
    // refused as locked without a check.
    const checked = (reasons.wrong_password ?? 0) + (reasons.locked_during_check ?? 0);
    expect(checked).toBe(MAX);
    expect(reasons.wrong_password).toBeGreaterThanOrEqual(MAX - 1);
    expect(reasons.locked).toBe(BURST_WRONG + 1 - MAX);
    expect(tally(codes)[2003] ?? 0).toBeLessThanOrEqual(MAX - 1);

    // Still locked afterwards: the right password is refused, the lock is in the row.
    const after = await login(harness, account.username, account.password);
    expect([after.status, after.body.code]).toEqual([400, 5300]);
    expect(after.body.data.lockout_seconds).toBeGreaterThan(14 * 60);
    const { rows } = await db().query('SELECT locked_until > now() AS locked FROM users WHERE id = $1', [
      account.id,
    ]);
    expect(rows[0].locked).toBe(true);
  });

  it('sequentially, a success still forgives the failures before it', async () => {
    for (let i = 0; i < MAX - 1; i++) await login(harness, account.username, `wrong-${i}`);
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
    const next = await login(harness, account.username, 'wrong-again');
    expect(next.body).toMatchObject({ code: 2003, data: { remaining_attempts: MAX - 1 } });
  });

  it(`${BURST_WRONG} attempts at once for an unknown username: no more than max_login_attempts places, then locked`, async () => {
    const ghost = `ghost_${account.username}`;
    const results = await Promise.all(
      Array.from({ length: BURST_WRONG }, (_, i) => login(harness, ghost, `guess-${i}`)),
    );
    const codes = results.map((r) => r.body.code);
    expect(codes.every((code) => code === 2003 || code === 5300)).toBe(true);
    expect(tally(codes)[2003] ?? 0).toBeLessThanOrEqual(MAX - 1);
    expect(tally(codes)[5300] ?? 0).toBeGreaterThanOrEqual(BURST_WRONG - MAX + 1);
    const after = await login(harness, ghost, 'one-more');
    expect([after.body.code, after.body.data.lockout_seconds > 14 * 60]).toEqual([5300, true]);
  });
});

describe('change-password: a wrong current password counts toward the lockout', () => {
  async function tokenFor(): Promise<string> {
    const res = await login(harness, account.username, account.password);
    expect(res.body.code).toBe(0);
    return res.body.data.access_token;
  }
  const change = (token: string, current: string) =>
    harness.request('POST', '/users/me/change-password', {
      token,
      json: { current_password: current, new_password: 'brand-new-pass-7' },
    });

  it('one wrong current password costs a login attempt', async () => {
    const token = await tokenFor();
    const wrong = await change(token, 'not-my-password');
    expect(wrong.body).toMatchObject({ code: 2003, data: { remaining_attempts: MAX - 1 } });
    const next = await login(harness, account.username, 'wrong-login');
    expect(next.body).toMatchObject({ code: 2003, data: { remaining_attempts: MAX - 2 } });
  });

  it('20 wrong current passwords at once: at most max_login_attempts are checked, then the account is locked', async () => {
    const token = await tokenFor();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => change(token, `nope-${i}`)));
    const codes = results.map((r) => r.body.code);
    expect(codes.every((code) => code === 2003 || code === 5300)).toBe(true);
    expect(tally(codes)[2003] ?? 0).toBeLessThanOrEqual(MAX - 1);
    expect(tally(codes)[5300] ?? 0).toBeGreaterThanOrEqual(20 - MAX + 1);
    // Locked: neither login nor a change with the right current password is checked.
    expect((await login(harness, account.username, account.password)).body.code).toBe(5300);
    expect((await change(token, account.password)).body.code).toBe(5300);
  });
});
