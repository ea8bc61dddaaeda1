import { describe, expect, it } from 'vitest';
import { generateKey, keyMatchesHash, keyPrefixOf } from '../src/domain/keys/key-format.js';

describe('key format', () => {
  it('is sk- + 12-character prefix + _ + 43-character secret, hashed with SHA-256', () => {
    const fresh = generateKey();
    expect(fresh.key).toMatch(/^sk-[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(fresh.prefix).toBe(fresh.key.slice(0, 15));
    expect(keyPrefixOf(fresh.key)).toBe(fresh.prefix);
    expect(fresh.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(keyMatchesHash(fresh.key, fresh.hash)).toBe(true);
    expect(keyMatchesHash(`${fresh.key}x`, fresh.hash)).toBe(false);
    expect(keyPrefixOf('sk-short')).toBeNull();
    expect(generateKey().key).not.toBe(fresh.key);
  });
});
