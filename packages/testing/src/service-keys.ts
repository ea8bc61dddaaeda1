import { createPublicKey } from 'node:crypto';

/**
 * DEV-ONLY service signing keys of the local stack and the tests (docs/security.md, "Who holds
 * which key"): the same values as deploy/local/env.sh. Each service signs its service tokens with
 * its own key; `operator` (operators' tooling) and `agent-runtime` (outside this repository) are
 * callers without a service here. Never use these outside the local stack.
 */
const DEV_SERVICE_SIGNING_KEYS = {
  gateway: 'MC4CAQAwBQYDK2VwBCIEIIhwxo0ixCxc4acmWEMtrykdNb2vthdp/b6I2e51EYpS',
  apikeys: 'MC4CAQAwBQYDK2VwBCIEIMCgCTLyrdOdhKeDQiPCEzFo+2qcH8q28mR96wa0G7Mj',
  notifications: 'MC4CAQAwBQYDK2VwBCIEIB4Li+faUspCiJfJTPL74lv2oMvM2/Z2LQgX9WIut67A',
  models: 'MC4CAQAwBQYDK2VwBCIEIFouL903KmH4TJNP5QA+OCybDVUGbzIrvp+y4cBAB9W1',
  workflows: 'MC4CAQAwBQYDK2VwBCIEIB/2gaXIBAWvIGdg6NEo3FZ+9AU2GlvUH+HT584/DRfA',
  observability: 'MC4CAQAwBQYDK2VwBCIEIBfWTvE1pDPulnHRWwVInxKuwVn11w26VaUeCJtUIUWs',
  operator: 'MC4CAQAwBQYDK2VwBCIEIDR1SmnYBs/J45AJxdLnMGIWireSCGN26w2l35pDYdvh',
  'agent-runtime': 'MC4CAQAwBQYDK2VwBCIEIB3wr8xHQvQwnNiXwKdZskFTYzMkAMJOL6Tm3GZT9z2g',
} as const;

export type DevService = keyof typeof DEV_SERVICE_SIGNING_KEYS;
export const DEV_SERVICES = Object.keys(DEV_SERVICE_SIGNING_KEYS) as DevService[];

/** `agent-runtime` → `AGENT_RUNTIME`: the suffix of its variables (as @platform/config names them). */
const suffix = (service: string) => service.toUpperCase().replace(/-/g, '_');

const isDevService = (service: string): service is DevService => service in DEV_SERVICE_SIGNING_KEYS;

/**
 * The service's private key (PKCS8 PEM): SERVICE_SIGNING_PRIVATE_KEY_<NAME> if set, else the dev
 * key. Throws for a name without one (a test of a stranger brings its own key).
 */
export function serviceSigningKey(service: string): string {
  if (!isDevService(service)) throw new Error(`no dev-only service signing key for ${service}`);
  return (
    process.env[`SERVICE_SIGNING_PRIVATE_KEY_${suffix(service)}`] ??
    `-----BEGIN PRIVATE KEY-----\n${DEV_SERVICE_SIGNING_KEYS[service]}\n-----END PRIVATE KEY-----`
  );
}

/** The public half of `serviceSigningKey(service)` (SPKI PEM): what its callees trust. */
export function servicePublicKey(service: DevService): string {
  const pem = serviceSigningKey(service).replace(/\\n/g, '\n');
  return createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString().trim();
}

/** SERVICE_PUBLIC_KEY_<CALLER> of every dev caller: a callee reads the ones its tables declare. */
export function servicePublicKeysEnv(): Record<string, string> {
  return Object.fromEntries(
    DEV_SERVICES.map((service) => [`SERVICE_PUBLIC_KEY_${suffix(service)}`, servicePublicKey(service)]),
  );
}

/**
 * The trust variables of `service` in a test harness, as deploy/local/services.sh gives them: the
 * principal public key, its own private key (the gateway also its principal key) and the public
 * keys of its callers. Spread it after `process.env`, so a value left in the environment never wins.
 */
export function serviceTrustEnv(
  service: string,
  principal: { publicKey: string; privateKey: string },
): Record<string, string> {
  return {
    PRINCIPAL_SIGNING_PUBLIC_KEY: principal.publicKey,
    ...(isDevService(service) ? { SERVICE_SIGNING_PRIVATE_KEY: serviceSigningKey(service) } : {}),
    ...(service === 'gateway' ? { PRINCIPAL_SIGNING_PRIVATE_KEY: principal.privateKey } : {}),
    ...servicePublicKeysEnv(),
  };
}
