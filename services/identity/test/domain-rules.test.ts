import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  PASSWORD_MAX_LENGTH,
  assertPasswordPolicy,
  passwordPolicyViolations,
} from '../src/domain/auth/password-policy.js';
import {
  isLocked,
  lockSecondsLeft,
  loginOutcome,
  reachesLockout,
  remainingAttempts,
} from '../src/domain/auth/login-rules.js';
import { matchTotp, newTotpSecret, normalizeBackupCode } from '../src/domain/totp/totp-codes.js';

// Identity's pure rules, tested directly; the *.int.test.ts files test the wiring over HTTP.
// The captcha trace rule has its own file (pointer-trace.test.ts).

describe('login outcome order (steps 4-8)', () => {
  const account: Parameters<typeof loginOutcome>[0] = {
    approval_status: 'approved',
    is_active: true,
    totp_enabled: false,
    email_verified: true,
    is_superuser: false,
  };
  const settings = { require_totp: false, email_verification: true };

  it('a plain approved, active, verified account gets a token', () => {
    expect(loginOutcome(account, settings)).toBe('token');
  });

  it('pending approval comes before inactive, and both before everything else', () => {
    const all = { ...account, approval_status: 'pending' as const, is_active: false, totp_enabled: true };
    expect(loginOutcome(all, { require_totp: true, email_verification: true })).toBe('pending_approval');
    expect(loginOutcome({ ...all, approval_status: 'approved' as const }, settings)).toBe('inactive');
  });

  it('an enabled TOTP challenges before enrollment and before the email check', () => {
    const unverified = { ...account, totp_enabled: true, email_verified: false };
    expect(loginOutcome(unverified, { require_totp: true, email_verification: true })).toBe('totp_challenge');
    expect(loginOutcome({ ...unverified, totp_enabled: false }, { ...settings, require_totp: true })).toBe(
      'totp_enrollment',
    );
  });

  it('an unverified email blocks only while email_verification is on, never a superuser', () => {
    const unverified = { ...account, email_verified: false };
    expect(loginOutcome(unverified, settings)).toBe('email_not_verified');
    expect(loginOutcome(unverified, { ...settings, email_verification: false })).toBe('token');
    expect(loginOutcome({ ...unverified, is_superuser: true }, settings)).toBe('token');
  });
});

describe('lockout arithmetic', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('a lock is in force until its end, not at it', () => {
    expect(isLocked(null, now)).toBe(false);
    expect(isLocked(new Date(now + 1), now)).toBe(true);
    expect(isLocked(new Date(now), now)).toBe(false);
    expect(isLocked(new Date(now - 60_000), now)).toBe(false);
  });

  it('lockout_seconds rounds up and is at least 1 while locked, 0 when not', () => {
    expect(lockSecondsLeft(new Date(now + 900_000), now)).toBe(900);
    expect(lockSecondsLeft(new Date(now + 1_500), now)).toBe(2);
    expect(lockSecondsLeft(new Date(now + 1), now)).toBe(1);
    expect(lockSecondsLeft(new Date(now), now)).toBe(0);
    expect(lockSecondsLeft(null, now)).toBe(0);
  });

  it('remaining_attempts counts down to 0 and the max-th failure locks', () => {
    expect([1, 2, 3, 4, 5, 6].map((failed) => remainingAttempts(5, failed))).toEqual([4, 3, 2, 1, 0, 0]);
    expect([4, 5, 6].map((failed) => reachesLockout(failed, 5))).toEqual([false, true, true]);
  });
});

describe('password policy', () => {
  const strict = {
    password_min_length: 8,
    password_require_uppercase: true,
    password_require_lowercase: true,
    password_require_digit: true,
    password_require_symbol: true,
  };
  const keys = (password: string, policy = strict) =>
    passwordPolicyViolations(password, policy).map((r) => r.key);

  it('lists every reason at once, with the minimum length as a parameter', () => {
    expect(passwordPolicyViolations('', strict)).toEqual([
      { key: 'password_too_short', params: { min_length: 8 } },
      { key: 'password_requires_uppercase' },
      { key: 'password_requires_lowercase' },
      { key: 'password_requires_digit' },
      { key: 'password_requires_special' },
    ]);
    expect(keys('Abcdef1!')).toEqual([]);
  });

  it('counts code points, not UTF-16 units, and caps the length whatever the settings', () => {
    const loose = { ...strict, password_require_uppercase: false, password_require_symbol: false };
    expect(keys('ab1😀😀😀😀', { ...loose, password_min_length: 8 })).toEqual(['password_too_short']);
    expect(keys('a1'.repeat(PASSWORD_MAX_LENGTH / 2), loose)).toEqual([]);
    expect(keys(`${'a1'.repeat(PASSWORD_MAX_LENGTH / 2)}x`, loose)).toEqual(['password_too_long']);
  });

  it('a symbol is anything but an ASCII letter or digit (spaces and non-Latin letters count)', () => {
    expect(keys('Abcdefg1 ')).toEqual([]);
    expect(keys('Abcdefg1é')).toEqual([]);
    expect(keys('Abcdefg12')).toEqual(['password_requires_special']);
  });

  it('switched-off classes are not required', () => {
    const lengthOnly = {
      password_min_length: 4,
      password_require_uppercase: false,
      password_require_lowercase: false,
      password_require_digit: false,
      password_require_symbol: false,
    };
    expect(keys('aaaa', lengthOnly)).toEqual([]);
  });

  it('assertPasswordPolicy raises 1001 at HTTP 400 naming the field, in the request locale', () => {
    let thrown: unknown;
    try {
      assertPasswordPolicy('short', strict, 'new_password', 'zh');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 1001, httpStatus: 400 });
    const errors = (thrown as { data: { errors: Record<string, string[]> } }).data.errors;
    expect(Object.keys(errors)).toEqual(['new_password']);
    expect(errors.new_password).toHaveLength(4);
    expect(errors.new_password!.join('')).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('TOTP windows', () => {
  const secret = newTotpSecret();
  const now = 1_800_000_000; // a step boundary: 1_800_000_000 / 30 = 60_000_000
  const codeAt = (epoch: number) => generate({ secret, epoch, period: 30 });

  it('accepts the current step and one step either side, and answers which step matched', async () => {
    expect(await matchTotp(secret, await codeAt(now), undefined, now)).toBe(60_000_000);
    expect(await matchTotp(secret, await codeAt(now - 30), undefined, now)).toBe(59_999_999);
    expect(await matchTotp(secret, await codeAt(now + 30), undefined, now)).toBe(60_000_001);
  });

  it('refuses codes two steps away', async () => {
    expect(await matchTotp(secret, await codeAt(now - 60), undefined, now)).toBeNull();
    expect(await matchTotp(secret, await codeAt(now + 60), undefined, now)).toBeNull();
  });

  it('refuses a step already used (replay) but accepts a later one', async () => {
    expect(await matchTotp(secret, await codeAt(now), 60_000_000, now)).toBeNull();
    expect(await matchTotp(secret, await codeAt(now + 30), 60_000_000, now)).toBe(60_000_001);
  });

  it('refuses anything but six digits before any check', async () => {
    expect(await matchTotp(secret, '12345', undefined, now)).toBeNull();
    expect(await matchTotp(secret, '1234567', undefined, now)).toBeNull();
    expect(await matchTotp(secret, 'abcdef', undefined, now)).toBeNull();
  });

  it('backup codes are typed with or without the dash, in any case', () => {
    expect(normalizeBackupCode('K7M2Q-XV9RA')).toBe('k7m2qxv9ra');
    expect(normalizeBackupCode(' k7m2q xv9ra ')).toBe('k7m2qxv9ra');
  });
});
