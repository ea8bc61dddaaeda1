import { deriveKey } from '@platform/crypto';
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Key material of the two trust mechanisms, parsed once at start. PEM values may arrive with
 * literal `\n` escapes (one-line env files); lists are comma-separated for rotation.
 */
function unescapePem(value: string): string {
  return value.replace(/\\n/g, '\n').trim();
}

/** Splits a comma-separated list of PEM blocks or secrets (a PEM body never holds a comma). */
export function splitKeyList(value: string | readonly string[]): string[] {
  const list = typeof value === 'string' ? value.split(',') : [...value];
  return list.map((item) => unescapePem(item)).filter((item) => item.length > 0);
}

/** A short, stable key id: which key of a rotation list signed a token. */
function keyId(material: Buffer): string {
  return createHash('sha256').update(material).digest('base64url').slice(0, 16);
}

function publicKid(key: KeyObject): string {
  return keyId(key.export({ type: 'spki', format: 'der' }));
}

export interface Ed25519PrivateKey {
  key: KeyObject;
  kid: string;
}

/** The gateway's principal signing key (PKCS8 PEM, Ed25519). Throws on anything else. */
export function parsePrivateSigningKey(pem: string): Ed25519PrivateKey {
  const key = createPrivateKey({ key: unescapePem(pem), format: 'pem' });
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`principal signing key must be Ed25519, got ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return { key, kid: publicKid(createPublicKey(key)) };
}

/** The principal verification keys (SPKI PEM, Ed25519), by key id. Throws on anything else. */
export function parsePublicVerifyKeys(value: string | readonly string[]): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const pem of splitKeyList(value)) {
    const key = createPublicKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new Error(`principal public key must be Ed25519, got ${key.asymmetricKeyType ?? 'unknown'}`);
    }
    keys.set(publicKid(key), key);
  }
  if (keys.size === 0) throw new Error('at least one principal public key is required');
  return keys;
}

export interface HmacKey {
  key: Uint8Array;
  kid: string;
}

export const MIN_SERVICE_KEY_LENGTH = 32;

/**
 * The service-token HMAC keys derived from SERVICE_AUTH_KEY entries (HKDF with its own purpose,
 * so the raw value is never used as a key). The first entry signs; every entry verifies.
 */
export function parseServiceKeys(value: string | readonly string[]): HmacKey[] {
  const keys = splitKeyList(value).map((secret) => {
    if (secret.length < MIN_SERVICE_KEY_LENGTH) {
      throw new Error(`each service auth key must be at least ${MIN_SERVICE_KEY_LENGTH} characters`);
    }
    const key = deriveKey(secret, 'service-token');
    return { key: new Uint8Array(key), kid: keyId(Buffer.concat([Buffer.from('kid:'), key])) };
  });
  if (keys.length === 0) throw new Error('at least one service auth key is required');
  return keys;
}
