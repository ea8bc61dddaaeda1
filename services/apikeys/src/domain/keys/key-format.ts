import { randomBytes } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '@platform/crypto';

/**
 * Key format: `sk-` + 12-character prefix + `_` + 43-character secret, e.g.
 * `sk-3fJq9Xb2LmQa_Yx…` (59 characters). The prefix (12 random alphanumeric characters, about 71
 * bits) identifies the key (unique index, shown in lists, searchable); being alphanumeric it never
 * contains the `_` separator or `-`, so it reads unambiguously and a search for `_` matches names
 * only. The secret is 32 bytes from the OS CSPRNG, base64url.
 * Only SHA-256 of the whole key is stored: with 256 bits of entropy a brute-force search is out of
 * reach, so a slow password KDF would only add latency to every verification.
 */
export const KEY_PREFIX_MARK = 'sk-';
const PREFIX_CHARS = 12;
const SECRET_CHARS = 43;
const KEY_PATTERN = /^sk-([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters drawn uniformly from [A-Za-z0-9] (rejection sampling keeps it unbiased). */
function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}

export interface NewKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateKey(): NewKey {
  const prefix = randomAlphanumeric(PREFIX_CHARS);
  const secret = randomBytes(32).toString('base64url');
  if (prefix.length !== PREFIX_CHARS || secret.length !== SECRET_CHARS) throw new Error('key length');
  const key = `${KEY_PREFIX_MARK}${prefix}_${secret}`;
  return { key, prefix: `${KEY_PREFIX_MARK}${prefix}`, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}

/** The stored prefix (`sk-` + 12 characters) of a well-formed key, or null. */
export function keyPrefixOf(key: string): string | null {
  const match = KEY_PATTERN.exec(key);
  return match ? `${KEY_PREFIX_MARK}${match[1]}` : null;
}

export function keyMatchesHash(key: string, storedHash: string): boolean {
  return constantTimeEqual(hashKey(key), storedHash);
}
