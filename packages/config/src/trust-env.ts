import { createPrivateKey, createPublicKey } from 'node:crypto';
import { z } from 'zod';

// One-line env files carry PEM newlines as `\n`; a comma separates rotation entries.
const unescape = (value: string) => value.replace(/\\n/g, '\n').trim();
const list = (value: string) => value.split(',').map(unescape).filter(Boolean);

function isEd25519(parse: () => { asymmetricKeyType?: string }): boolean {
  try {
    return parse().asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

/** Validators of the trust-between-services variables (docs/security.md). */
export const trustEnv = {
  /** PRINCIPAL_SIGNING_PRIVATE_KEY: the gateway's Ed25519 key, PKCS8 PEM. */
  principalSigningPrivateKey: () =>
    z
      .string()
      .transform(unescape)
      .refine((pem) => isEd25519(() => createPrivateKey({ key: pem, format: 'pem' })), {
        message: 'must be an Ed25519 private key in PKCS8 PEM (-----BEGIN PRIVATE KEY-----)',
      }),
  /** PRINCIPAL_SIGNING_PUBLIC_KEY: one or more (comma-separated) Ed25519 public keys, SPKI PEM. */
  principalSigningPublicKeys: () =>
    z
      .string()
      .transform(list)
      .refine((pems) => pems.length > 0, { message: 'must hold at least one public key' })
      .refine((pems) => pems.every((pem) => isEd25519(() => createPublicKey({ key: pem, format: 'pem' }))), {
        message: 'each entry must be an Ed25519 public key in SPKI PEM (-----BEGIN PUBLIC KEY-----)',
      }),
  /** SERVICE_AUTH_KEY: one or more (comma-separated) shared secrets, each >= 32 characters. */
  serviceAuthKeys: () =>
    z
      .string()
      .transform(list)
      .refine((keys) => keys.length > 0 && keys.every((key) => key.length >= 32), {
        message: 'must be a comma-separated list of secrets of at least 32 characters each',
      }),
};

/** Variables every domain service reads to check its callers (the gateway adds its private key). */
export const serviceTrustShape = {
  PRINCIPAL_SIGNING_PUBLIC_KEY: trustEnv.principalSigningPublicKeys(),
  SERVICE_AUTH_KEY: trustEnv.serviceAuthKeys(),
};
