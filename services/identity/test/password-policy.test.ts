import { describe, expect, it } from 'vitest';
import {
  PASSWORD_MAX_LENGTH,
  assertPasswordPolicy,
  passwordPolicyViolations,
} from '../src/domain/auth/password-policy.js';

// Each branch of the password policy alone (domain-rules.test.ts has the rules together).

const NOTHING_REQUIRED = {
  password_min_length: 1,
  password_require_uppercase: false,
  password_require_lowercase: false,
  password_require_digit: false,
  password_require_symbol: false,
};
const keys = (password: string, policy: Partial<typeof NOTHING_REQUIRED>) =>
  passwordPolicyViolations(password, { ...NOTHING_REQUIRED, ...policy }).map((r) => r.key);

describe('password policy, one rule at a time', () => {
  it('the minimum length is inclusive: exactly min passes, one less is too short', () => {
    expect(keys('abcdefgh', { password_min_length: 8 })).toEqual([]);
    expect(keys('abcdefg', { password_min_length: 8 })).toEqual(['password_too_short']);
  });

  it('the maximum (128 code points) is inclusive and named with its parameter', () => {
    expect(keys('x'.repeat(PASSWORD_MAX_LENGTH), {})).toEqual([]);
    expect(passwordPolicyViolations('x'.repeat(PASSWORD_MAX_LENGTH + 1), NOTHING_REQUIRED)).toEqual([
      { key: 'password_too_long', params: { max_length: 128 } },
    ]);
  });

  it('the maximum counts code points: 128 emoji (256 UTF-16 units) pass', () => {
    expect(keys('😀'.repeat(PASSWORD_MAX_LENGTH), {})).toEqual([]);
  });

  it('uppercase: one ASCII capital satisfies it; a non-ASCII capital does not', () => {
    expect(keys('abcD', { password_require_uppercase: true })).toEqual([]);
    expect(keys('abcÉ', { password_require_uppercase: true })).toEqual(['password_requires_uppercase']);
  });

  it('lowercase: one ASCII small letter satisfies it; a non-ASCII one does not', () => {
    expect(keys('ABCd', { password_require_lowercase: true })).toEqual([]);
    expect(keys('ABCé', { password_require_lowercase: true })).toEqual(['password_requires_lowercase']);
  });

  it('digit: one ASCII digit satisfies it; other numerals do not', () => {
    expect(keys('abc7', { password_require_digit: true })).toEqual([]);
    expect(keys('abc٣', { password_require_digit: true })).toEqual(['password_requires_digit']);
  });

  it('symbol: a letters-and-digits-only password is refused', () => {
    expect(keys('abc-', { password_require_symbol: true })).toEqual([]);
    expect(keys('abc1', { password_require_symbol: true })).toEqual(['password_requires_special']);
  });
});

describe('assertPasswordPolicy', () => {
  it('a compliant password passes silently', () => {
    expect(() => assertPasswordPolicy('abc', NOTHING_REQUIRED, 'password', 'en')).not.toThrow();
  });

  it('an unknown locale falls back to English, and the field named is the one given', () => {
    let thrown: unknown;
    try {
      assertPasswordPolicy('ab', { ...NOTHING_REQUIRED, password_min_length: 8 }, 'password', 'xx-YY');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 1001, httpStatus: 400 });
    const errors = (thrown as { data: { errors: Record<string, string[]> } }).data.errors;
    expect(Object.keys(errors)).toEqual(['password']);
    expect(errors.password).toHaveLength(1);
    expect(errors.password![0]).toMatch(/8/);
    expect(errors.password![0]).toMatch(/^[\x20-\x7e]+$/);
  });
});
