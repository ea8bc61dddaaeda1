// The platform's topology as the deployment checks see it (docs/development.md, ARCHITECTURE.md):
// the seven services with their ports, protocols and backing stores, the store images, and where the
// deployment descriptors live.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEPLOY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO = resolve(DEPLOY, '..');
export const DOCKER = join(DEPLOY, 'docker');
export const K8S = join(DEPLOY, 'k8s');
export const HEALTHCHECK_SCRIPT = join(DOCKER, 'healthcheck.mjs');

export type Store = 'postgres' | 'redis' | 'kafka' | 'mongo';

export interface ServiceSpec {
  name: string;
  port: number;
  protocol: 'http' | 'grpc';
  stores: Store[];
}

export const SERVICES: ServiceSpec[] = [
  { name: 'gateway', port: 8080, protocol: 'http', stores: ['redis', 'kafka'] },
  { name: 'identity', port: 50061, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'apikeys', port: 50062, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'notifications', port: 50063, protocol: 'grpc', stores: ['mongo', 'redis', 'kafka'] },
  { name: 'models', port: 50064, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'workflows', port: 50065, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'observability', port: 50066, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
];
export const GRPC_SERVICES = SERVICES.filter((s) => s.protocol === 'grpc');
/**
 * The sandbox worker: the workflows image with PROCESS_ROLE=sandbox (the code nodes' user
 * JavaScript). Not a service: no API (grpc.health.v1 only), no Service, no store but Kafka.
 */
export const SANDBOX_WORKER = 'sandbox-worker';
export const SANDBOX_GRPC_PORT = 50067;
/** The Secret of its own Kafka user (`sandbox`; the KafkaUser of the strimzi-kafka component). */
export const SANDBOX_KAFKA_SECRET = 'sandbox-kafka';
/** Every process's `GET /metrics` port (METRICS_PORT's default), off its public port. */
export const METRICS_PORT = 9464;

export const STORE_IMAGES: Record<Store, RegExp> = {
  postgres: /^postgres:16([.-]|$)/,
  redis: /^redis:7([.-]|$)/,
  kafka: /^apache\/kafka:3\.9([.-]|$)/,
  mongo: /^mongo:7([.-]|$)/,
};
export const STORES = Object.keys(STORE_IMAGES) as Store[];

export const grpcAddrVar = (service: string): string => `${service.toUpperCase()}_GRPC_ADDR`;

/**
 * Whose service tokens each service checks: the callers its internal-only methods declare
 * (services/<name>/src/grpc/internal-callers.ts; deploy/test/trust-keys.test.ts keeps them equal).
 * `operator` (operators' tooling) and `agent-runtime` (outside this repository) have no service here.
 */
export const SERVICE_CALLERS: Record<string, string[]> = {
  identity: ['gateway', 'apikeys', 'notifications', 'models', 'workflows'],
  apikeys: ['gateway', 'operator'],
  models: ['agent-runtime', 'workflows', 'observability'],
  workflows: ['apikeys', 'observability'],
};
/** The services that call others, each with a service signing key of its own (identity calls nobody). */
export const SIGNING_SERVICES = SERVICES.map((s) => s.name).filter((name) => name !== 'identity');
const suffix = (service: string) => service.toUpperCase().replace(/-/g, '_');
/** The variable with `caller`'s public key(s), as @platform/config names it. */
export const servicePublicKeyVar = (caller: string): string => `SERVICE_PUBLIC_KEY_${suffix(caller)}`;
const callers = [...new Set(Object.values(SERVICE_CALLERS).flat())];

/** Which services may hold each secret (docs/security.md): every other service must not see it. */
export const SECRET_AUDIENCE: Record<string, string[]> = {
  SECRET_KEY: ['gateway', 'identity', 'models'],
  TASK_SEAL_KEY: ['identity', 'notifications'],
  PRINCIPAL_SIGNING_PRIVATE_KEY: ['gateway'],
  PRINCIPAL_SIGNING_PUBLIC_KEY: GRPC_SERVICES.map((g) => g.name),
  SERVICE_SIGNING_PRIVATE_KEY: SIGNING_SERVICES,
  // A caller's public key goes to its callees only (pinned by the deployer, so Secrets too).
  ...Object.fromEntries(
    callers.map((caller) => [
      servicePublicKeyVar(caller),
      Object.keys(SERVICE_CALLERS).filter((callee) => SERVICE_CALLERS[callee]!.includes(caller)),
    ]),
  ),
};
/**
 * A secret a service receives under the common name but from a value of its own: models' SECRET_KEY
 * seals provider keys only, so it must not be the platform SECRET_KEY that signs user JWTs; each
 * service's SERVICE_SIGNING_PRIVATE_KEY is its own key, never another service's.
 */
export const OWN_SECRET_VALUE: Record<string, Record<string, string>> = Object.fromEntries(
  SIGNING_SERVICES.map((name) => [
    name,
    {
      SERVICE_SIGNING_PRIVATE_KEY: `SERVICE_SIGNING_PRIVATE_KEY_${suffix(name)}`,
      ...(name === 'models' ? { SECRET_KEY: 'MODELS_SECRET_KEY' } : {}),
    },
  ]),
);
export const KAFKA_CLIENT_ENV = [
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL',
];

/** Who may open a connection to whose gRPC port (NetworkPolicies): the gateway reaches every
 *  service; services that check API keys, users or settings reach identity; workflows reaches models;
 *  apikeys and observability reach workflows (workflow names); observability reaches models (usage). */
export const GRPC_CALLERS: Record<string, string[]> = {
  identity: ['gateway', 'apikeys', 'notifications', 'models', 'workflows', 'observability'],
  apikeys: ['gateway'],
  notifications: ['gateway'],
  models: ['gateway', 'workflows', 'observability'],
  workflows: ['gateway', 'apikeys', 'observability'],
  observability: ['gateway'],
};

/** Every variable the service validates at start (docs/development.md, "Environment variables"). */
export function requiredEnv(s: ServiceSpec): string[] {
  const env = ['NODE_ENV', 'LOG_LEVEL', 'TZ', 'REDIS_URL', 'KAFKA_BROKERS', ...KAFKA_CLIENT_ENV];
  env.push(...GRPC_SERVICES.map((g) => grpcAddrVar(g.name)));
  env.push(s.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT');
  if (s.stores.includes('postgres')) env.push('DATABASE_URL');
  if (s.stores.includes('mongo')) env.push('MONGO_URL');
  env.push(...Object.keys(SECRET_AUDIENCE).filter((k) => SECRET_AUDIENCE[k]?.includes(s.name)));
  return env;
}

/** Secrets this service must not be given. */
export const forbiddenSecrets = (s: ServiceSpec): string[] =>
  Object.keys(SECRET_AUDIENCE).filter((k) => !SECRET_AUDIENCE[k]?.includes(s.name));
