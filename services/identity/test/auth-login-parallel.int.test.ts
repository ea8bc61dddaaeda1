import { describe, expect, it } from 'vitest';
import {
  login,
  registerActiveAccount,
  PASSWORD_ONLY_SETTINGS,
  type RegisteredAccount,
} from './support/auth-accounts.js';
import { useIdentityHarness } from './support/suite.js';
import type { IdentityHarness } from './support/harness.js';

/**
 * Parallel logins through the gateway (issue 20): a right password is never a failure, so a burst
 * of them never locks the account; attempts beyond the places in flight wait (or are refused with
 * 5400, which locks nothing); wrong passwords answer 2003 until the one that locks, then 5300.
 */
const MAX = 5;

async function freshAccount(harness: IdentityHarness, prefix: string): Promise<RegisteredAccount> {
  const account = await registerActiveAccount(harness, prefix);
  await harness.setSettings({ ...PASSWORD_ONLY_SETTINGS, max_login_attempts: MAX });
  return account;
}

function tally(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

async function budgetRow(harness: IdentityHarness, userId: string) {
  const { rows } = await harness.identity.dependencies.pool.query<{
    failed: number;
    in_flight: number;
    locked: boolean;
  }>(
    `SELECT failed_login_attempts AS failed, login_checks_in_flight AS in_flight,
            coalesce(locked_until > now(), false) AS locked
       FROM users WHERE id = $1`,
    [userId],
  );
  return rows[0]!;
}

const burst = (harness: IdentityHarness, username: string, passwords: string[]) =>
  Promise.all(passwords.map((password) => login(harness, username, password)));

describe('parallel password logins (default wait for a place)', () => {
  const harness = useIdentityHarness({ firstUser: true });

  it('6 simultaneous logins with the right password all get a token; the account is not locked', async () => {
    const account = await freshAccount(harness, 'par6');
    const results = await burst(harness, account.username, Array(6).fill(account.password));
    expect(tally(results.map((r) => r.body.code))).toEqual({ 0: 6 });
    expect(results.every((r) => r.status === 200 && r.body.data.access_token)).toBe(true);
    expect(await budgetRow(harness, account.id)).toEqual({ failed: 0, in_flight: 0, locked: false });
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
  });

  it('12 simultaneous right passwords: tokens (a waiter past LOGIN_PLACE_WAIT_MS gets 5400), never a lock', async () => {
    const account = await freshAccount(harness, 'par12');
    const results = await burst(harness, account.username, Array(12).fill(account.password));
    const codes = tally(results.map((r) => r.body.code));
    expect(Object.keys(codes).filter((code) => code !== '0' && code !== '5400')).toEqual([]);
    expect(codes[0]).toBeGreaterThanOrEqual(MAX);
    expect(await budgetRow(harness, account.id)).toEqual({ failed: 0, in_flight: 0, locked: false });
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
  });

  it('40 wrong passwords at once: 2003 with remaining 4, 3, 2, 1, then the lock (5300) for every other', async () => {
    const account = await freshAccount(harness, 'parwrong');
    const results = await burst(
      harness,
      account.username,
      Array.from({ length: 40 }, (_, i) => `wrong-${i}`),
    );
    expect(tally(results.map((r) => r.body.code))).toEqual({ 2003: MAX - 1, 5300: 40 - (MAX - 1) });
    const remaining = results.filter((r) => r.body.code === 2003).map((r) => r.body.data.remaining_attempts);
    expect(remaining.sort()).toEqual([1, 2, 3, 4]);
    expect(await budgetRow(harness, account.id)).toMatchObject({ failed: MAX, in_flight: 0, locked: true });
  });

  it('40 wrong and the right one at once: wrong ones 2003 until the lock, the right one a token or the lock', async () => {
    const account = await freshAccount(harness, 'parmixed');
    const passwords = [...Array.from({ length: 40 }, (_, i) => `wrong-${i}`), account.password];
    const results = await burst(harness, account.username, passwords);
    const right = results[40]!;
    expect([0, 5300]).toContain(right.body.code);
    const wrongCodes = results.slice(0, 40).map((r) => r.body.code);
    expect(wrongCodes.every((code) => code === 2003 || code === 5300)).toBe(true);
    // A success forgives the failures settled before it, so the lock may take one more round.
    const expected2003 = right.body.code === 0 ? [MAX - 1, 2 * (MAX - 1)] : [MAX - 1, MAX - 1];
    expect(tally(wrongCodes)[2003]).toBeGreaterThanOrEqual(expected2003[0]!);
    expect(tally(wrongCodes)[2003]).toBeLessThanOrEqual(expected2003[1]!);
    expect(await budgetRow(harness, account.id)).toMatchObject({ in_flight: 0, locked: true });
  });

  it('an unknown username answers a wrong-password burst exactly like a real account', async () => {
    const account = await freshAccount(harness, 'parghost');
    const wrong = Array.from({ length: 8 }, (_, i) => `guess-${i}`);
    const [real, ghost] = await Promise.all([
      burst(harness, account.username, wrong),
      burst(harness, `ghost_${account.username}`, wrong),
    ]);
    const expected = { 2003: MAX - 1, 5300: 8 - (MAX - 1) };
    expect(tally(real.map((r) => r.body.code))).toEqual(expected);
    expect(tally(ghost.map((r) => r.body.code))).toEqual(expected);
  });

  it('places lost with their process (older than a minute) do not hold the account', async () => {
    const account = await freshAccount(harness, 'parstale');
    await harness.identity.dependencies.pool.query(
      `UPDATE users SET login_checks_in_flight = $2, login_checks_since = now() - interval '2 minutes'
        WHERE id = $1`,
      [account.id, MAX],
    );
    expect((await login(harness, account.username, account.password)).body.code).toBe(0);
    expect(await budgetRow(harness, account.id)).toEqual({ failed: 0, in_flight: 0, locked: false });
  });
});

describe('parallel password logins with no wait for a place (LOGIN_PLACE_WAIT_MS=0)', () => {
  const harness = useIdentityHarness({ firstUser: true, env: { LOGIN_PLACE_WAIT_MS: '0' } });

  it('attempts beyond the places in flight are refused with 5400 {limit}: no failure, no lock', async () => {
    const account = await freshAccount(harness, 'parnowait');
    const results = await burst(harness, account.username, Array(12).fill(account.password));
    const codes = results.map((r) => r.body.code);
    expect(codes.every((code) => code === 0 || code === 5400)).toBe(true);
    expect(tally(codes)[0]).toBeGreaterThanOrEqual(MAX);
    for (const refused of results.filter((r) => r.body.code === 5400)) {
      expect(refused.status).toBe(400);
      expect(refused.body.data).toMatchObject({ limit: MAX });
    }
    expect(await budgetRow(harness, account.id)).toEqual({ failed: 0, in_flight: 0, locked: false });

    // Every place held (as by checks in flight): refused at once, and still nothing counted.
    await harness.identity.dependencies.pool.query(
      `UPDATE users SET login_checks_in_flight = $2, login_checks_since = now() WHERE id = $1`,
      [account.id, MAX],
    );
    const held = await login(harness, account.username, account.password);
    expect([held.status, held.body.code]).toEqual([400, 5400]);
    expect(await budgetRow(harness, account.id)).toEqual({ failed: 0, in_flight: MAX, locked: false });
  });
});
