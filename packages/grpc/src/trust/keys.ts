import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Key material of the two trust mechanisms (all Ed25519), parsed once at start. PEM values may arrive with
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

/** A private signing key (PKCS8 PEM, Ed25519): the gateway's principal key, a service's own key. */
export function parsePrivateSigningKey(pem: string): Ed25519PrivateKey {
  const key = createPrivateKey({ key: unescapePem(pem), format: 'pem' });
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`a signing key must be Ed25519, got ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return { key, kid: publicKid(createPublicKey(key)) };
}

/** Verification keys (SPKI PEM, Ed25519), by key id. Throws on anything else. */
export function parsePublicVerifyKeys(value: string | readonly string[]): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const pem of splitKeyList(value)) {
    const key = createPublicKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new Error(`a public key must be Ed25519, got ${key.asymmetricKeyType ?? 'unknown'}`);
    }
    keys.set(publicKid(key), key);
  }
  if (keys.size === 0) throw new Error('at least one public key is required');
  return keys;
}

/**
 * The callee's table of calling services' public keys (SERVICE_PUBLIC_KEY_<CALLER>), by caller and
 * key id: a service token counts only when its `kid` is one of the keys of the caller it names.
 */
export function parseCallerKeys(
  table: Readonly<Record<string, string | readonly string[]>>,
): Map<string, Map<string, KeyObject>> {
  const callers = new Map<string, Map<string, KeyObject>>();
  for (const [caller, keys] of Object.entries(table)) callers.set(caller, parsePublicVerifyKeys(keys));
  return callers;
}
