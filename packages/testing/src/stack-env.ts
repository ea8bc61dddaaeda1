import { serviceSigningKey, serviceTrustEnv } from './service-keys.js';

const principalSigningPrivateKey =
  process.env.PRINCIPAL_SIGNING_PRIVATE_KEY ??
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEICgahtlbxfjPTGavt4X8RduEi2gSA6vvBMFWW0ZIllDN\n-----END PRIVATE KEY-----';
const principalSigningPublicKey =
  process.env.PRINCIPAL_SIGNING_PUBLIC_KEY ??
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAW/gzeaSaNNq1RLUMzRZNa0pQEmVEvjwdXAfrgp4v4ZQ=\n-----END PUBLIC KEY-----';

/** Addresses of the local stack (deploy/local/env.sh), with the project's default ports. */
export const stackEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test',
  postgresAdminUrl: process.env.POSTGRES_ADMIN_URL ?? 'postgres://platform:platform@127.0.0.1:55432/postgres',
  mongoUrl: process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:57017/platform_test',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0',
  kafkaBrokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(','),
  gatewayUrl: process.env.GATEWAY_URL ?? `http://127.0.0.1:${process.env.HTTP_PORT ?? '8080'}`,
  secretKey: process.env.SECRET_KEY ?? 'local-development-secret-key-change-me-0123456789',
  taskSealKey: process.env.TASK_SEAL_KEY ?? 'local-development-task-seal-key-change-me-0123456789',
  // Dev-only trust keys (docs/security.md), the same defaults as deploy/local/env.sh.
  principalSigningPrivateKey,
  principalSigningPublicKey,
  /** A service's (or an outside caller's) own dev-only service signing key (PKCS8 PEM). */
  serviceSigningKey,
  /**
   * Every trust variable `service` reads, as the local runner gives them: its own private key
   * only, the public keys of the callers, the principal key(s) (docs/security.md).
   */
  serviceTrustEnv: (service: string) =>
    serviceTrustEnv(service, {
      publicKey: principalSigningPublicKey,
      privateKey: principalSigningPrivateKey,
    }),
};

/** A name no earlier test run used (for topics, groups, databases, rows). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
