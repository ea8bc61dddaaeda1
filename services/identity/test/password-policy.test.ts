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

  // Each character class: a password that has one ASCII member passes; one with only a look-alike
  // outside ASCII (É, é, the Arabic-Indic three) or none at all is refused with the class's key.
  it.each([
    ['password_require_uppercase', 'abcD', 'abcÉ', 'password_requires_uppercase'],
    ['password_require_lowercase', 'ABCd', 'ABCé', 'password_requires_lowercase'],
    ['password_require_digit', 'abc7', 'abc٣', 'password_requires_digit'],
    ['password_require_symbol', 'abc-', 'abc1', 'password_requires_special'],
  ] as const)('%s: %s passes, %s is refused', (setting, passes, refused, key) => {
    expect(keys(passes, { [setting]: true })).toEqual([]);
    expect(keys(refused, { [setting]: true })).toEqual([key]);
  });
});

describe('assertPasswordPolicy', () => {
  it('a compliant password passes silently', () => {
    expect(() => assertPasswordPolicy('abc', NOTHING_REQUIRED, 'password', 'en')).not.toThrow();
  });

  it('an unknown locale falls back to English, and the field named is the one given', () => {
    const policy = { ...NOTHING_REQUIRED, password_min_length: 8 };
    // One English reason naming 8, under the given field only.
    expect(() => assertPasswordPolicy('ab', policy, 'password', 'xx-YY')).toThrow(
      expect.objectContaining({
        code: 1001,
        httpStatus: 400,
        data: expect.objectContaining({
          errors: { password: [expect.stringMatching(/^[\x20-\x7e]*8[\x20-\x7e]*$/)] },
        }),
      }),
    );
  });
});
