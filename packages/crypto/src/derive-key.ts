import { hkdfSync } from 'node:crypto';

/**
 * Derives an independent 32-byte key for one purpose from SECRET_KEY (HKDF-SHA256), so the JWT
 * signing key, the at-rest encryption key and any future key never share material.
 */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), Buffer.alloc(0), `agent-platform:${purpose}`, 32),
  );
}
