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

const isEd25519Private = (pem: string) => isEd25519(() => createPrivateKey({ key: pem, format: 'pem' }));
const isEd25519Public = (pem: string) => isEd25519(() => createPublicKey({ key: pem, format: 'pem' }));

const PRIVATE_KEY_MESSAGE = 'must be an Ed25519 private key in PKCS8 PEM (-----BEGIN PRIVATE KEY-----)';
const PUBLIC_KEY_MESSAGE =
  'each entry must be an Ed25519 public key in SPKI PEM (-----BEGIN PUBLIC KEY-----)';

/**
 * Most public keys one caller may have at a callee: the current one and the next (or previous)
 * during a rotation. A third would be a key nobody removed after the last rotation.
 */
export const MAX_SERVICE_PUBLIC_KEYS = 2;

/** Validators of the trust-between-services variables (docs/security.md). */
export const trustEnv = {
  /** PRINCIPAL_SIGNING_PRIVATE_KEY: the gateway's Ed25519 key, PKCS8 PEM. */
  principalSigningPrivateKey: () =>
    z.string().transform(unescape).refine(isEd25519Private, { message: PRIVATE_KEY_MESSAGE }),
  /** PRINCIPAL_SIGNING_PUBLIC_KEY: one or more (comma-separated) Ed25519 public keys, SPKI PEM. */
  principalSigningPublicKeys: () =>
    z
      .string()
      .transform(list)
      .refine((pems) => pems.length > 0, { message: 'must hold at least one public key' })
      .refine((pems) => pems.every(isEd25519Public), { message: PUBLIC_KEY_MESSAGE }),
  /** SERVICE_SIGNING_PRIVATE_KEY: this service's own Ed25519 key (PKCS8 PEM) for its service tokens. */
  serviceSigningPrivateKey: () =>
    z.string().transform(unescape).refine(isEd25519Private, { message: PRIVATE_KEY_MESSAGE }),
  /** SERVICE_PUBLIC_KEY_<CALLER>: that caller's Ed25519 public key(s), SPKI PEM, two while rotating. */
  servicePublicKeys: () =>
    z
      .string()
      .transform(list)
      .refine((pems) => pems.length > 0 && pems.length <= MAX_SERVICE_PUBLIC_KEYS, {
        message: `must hold one public key, or ${MAX_SERVICE_PUBLIC_KEYS} (comma-separated) while rotating`,
      })
      .refine((pems) => pems.every(isEd25519Public), { message: PUBLIC_KEY_MESSAGE }),
};

type Snake<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}_${Snake<Tail>}` : S;
/** The variable that holds the public key(s) of service `C` (`agent-runtime` → `SERVICE_PUBLIC_KEY_AGENT_RUNTIME`). */
export type ServicePublicKeyVariable<C extends string> = `SERVICE_PUBLIC_KEY_${Uppercase<Snake<C>>}`;

const PUBLIC_KEY_PREFIX = 'SERVICE_PUBLIC_KEY_';

export function servicePublicKeyVariable<C extends string>(caller: C): ServicePublicKeyVariable<C> {
  return `${PUBLIC_KEY_PREFIX}${caller.toUpperCase().replace(/-/g, '_')}` as ServicePublicKeyVariable<C>;
}

type CallersIn<T> = T extends Record<string, readonly (infer C extends string)[]> ? C : never;

/** Every caller named in a service's internal-method tables (`INTERNAL_CALLERS`), once each. */
export function declaredCallers<const T extends readonly Record<string, readonly string[]>[]>(
  ...tables: T
): CallersIn<T[number]>[] {
  return [...new Set(tables.flatMap((table) => Object.values(table).flat()))] as CallersIn<T[number]>[];
}

type CallerKeysShape<C extends string> = {
  [K in C as ServicePublicKeyVariable<K>]: ReturnType<typeof trustEnv.servicePublicKeys>;
};

/**
 * Variables a domain service reads to check its callers: the gateway's principal key(s), and the
 * public key(s) of every service its internal methods declare (`declaredCallers`), each required,
 * so a service never starts unable to authenticate a caller it serves.
 */
export function serviceTrustShape<const C extends string>(callers: readonly C[]) {
  const callerKeys = Object.fromEntries(
    callers.map((caller) => [servicePublicKeyVariable(caller), trustEnv.servicePublicKeys()]),
  ) as CallerKeysShape<C>;
  return { PRINCIPAL_SIGNING_PUBLIC_KEY: trustEnv.principalSigningPublicKeys(), ...callerKeys };
}

/** The variable of a service that calls others: its own private key (docs/security.md). */
export const serviceSigningShape = {
  SERVICE_SIGNING_PRIVATE_KEY: trustEnv.serviceSigningPrivateKey(),
};

/** The caller → public keys table of a loaded config (the `SERVICE_PUBLIC_KEY_*` variables it read). */
export function trustedCallerKeys(config: object): Record<string, readonly string[]> {
  const table: Record<string, readonly string[]> = {};
  for (const [variable, value] of Object.entries(config)) {
    if (!variable.startsWith(PUBLIC_KEY_PREFIX) || !Array.isArray(value)) continue;
    const caller = variable.slice(PUBLIC_KEY_PREFIX.length).toLowerCase().replace(/_/g, '-');
    table[caller] = value as string[];
  }
  return table;
}
