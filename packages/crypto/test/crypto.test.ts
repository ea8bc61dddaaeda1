import { describe, expect, it } from 'vitest';
import { SecretBox, constantTimeEqual, deriveKey, randomToken } from '../src/index.js';

const SECRET = 'a-development-secret-key-of-32-chars!!';

describe('crypto', () => {
  it('derives distinct keys per purpose, stable per secret', () => {
    expect(deriveKey(SECRET, 'jwt')).toEqual(deriveKey(SECRET, 'jwt'));
    expect(deriveKey(SECRET, 'jwt')).not.toEqual(deriveKey(SECRET, 'secrets-at-rest'));
    expect(deriveKey(SECRET, 'jwt')).toHaveLength(32);
  });

  it('round-trips secrets and rejects tampering or another key', () => {
    const box = new SecretBox(SECRET);
    const sealed = box.encrypt('smtp-password');
    expect(sealed).not.toContain('smtp-password');
    expect(box.encrypt('smtp-password')).not.toBe(sealed);
    expect(box.decrypt(sealed)).toBe('smtp-password');
    const parts = sealed.split(':');
    const tampered = [...parts.slice(0, 3), Buffer.from('xxxx').toString('base64url')].join(':');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() => new SecretBox(SECRET + '?').decrypt(sealed)).toThrow();
  });

  it('compares in constant time and makes random tokens', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(randomToken()).not.toBe(randomToken());
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
