// The docker-compose.yml check: backing servers, the seven services (build, health, start order,
// environment) and what is published. Each check returns every problem it finds.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { checkDockerfile } from './dockerfiles.js';
import { isRecord, read } from './parse.js';
import {
  DEPLOY,
  GRPC_SERVICES,
  METRICS_PORT,
  REPO,
  SERVICES,
  STORE_IMAGES,
  OWN_SECRET_VALUE,
  SECRET_AUDIENCE,
  STORES,
  SANDBOX_WORKER,
  forbiddenSecrets,
  type ServiceSpec,
  grpcAddrVar,
  requiredEnv,
} from './topology.js';

interface ComposeHealthcheck {
  test?: string | string[];
  disable?: boolean;
}
export interface ComposeService {
  image?: string;
  command?: string | string[];
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, unknown> | string[] };
  environment?: Record<string, unknown> | string[];
  ports?: (string | number | { target?: number | string })[];
  expose?: (string | number)[];
  healthcheck?: ComposeHealthcheck;
  depends_on?: string[] | Record<string, { condition?: string }>;
  volumes?: (string | { source?: string; target?: string })[];
}
export interface ComposeFile {
  services?: Record<string, ComposeService>;
}

const COMPOSE_PATH = join(DEPLOY, 'docker-compose.yml');
export const loadCompose = (): ComposeFile => parse(read(COMPOSE_PATH), { merge: true }) as ComposeFile;

export function composeEnv(svc: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  if (Array.isArray(svc.environment)) {
    for (const entry of svc.environment) {
      const eq = entry.indexOf('=');
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
  } else if (isRecord(svc.environment)) {
    for (const [k, v] of Object.entries(svc.environment))
      if (v !== null && v !== undefined) env[k] = String(v);
  }
  return env;
}

const healthcheckCommand = (hc: ComposeHealthcheck | undefined): string =>
  hc === undefined || hc.disable ? '' : Array.isArray(hc.test) ? hc.test.join(' ') : (hc.test ?? '');

/** Container port of a compose `ports` entry ("8080", "127.0.0.1:${X:-8080}:8080/tcp", {target}). */
function containerPort(entry: string | number | { target?: number | string }): number {
  if (typeof entry === 'object') return Number(entry.target);
  const withoutProto = String(entry).split('/')[0] ?? '';
  return Number(withoutProto.slice(withoutProto.lastIndexOf(':') + 1));
}

function dependsOn(svc: ComposeService): Record<string, string | undefined> {
  if (Array.isArray(svc.depends_on)) return Object.fromEntries(svc.depends_on.map((d) => [d, undefined]));
  return Object.fromEntries(Object.entries(svc.depends_on ?? {}).map(([d, v]) => [d, v?.condition]));
}

function buildArgs(args: Record<string, unknown> | string[] | undefined): Record<string, string> {
  if (Array.isArray(args)) return composeEnv({ environment: args });
  return Object.fromEntries(Object.entries(args ?? {}).map(([k, v]) => [k, String(v)]));
}

// A credential is never written into the file: it is a required variable (${NAME:?message}) that
// compose takes from the environment or deploy/.env. Optional ones (${NAME:-}) may default to empty.
const REQUIRED_VAR = /^\$\{(\w+):\?[^}]*\}$/;
const CREDENTIAL = /PASSWORD|SECRET|_KEY$/;

function checkCredentials(where: string, env: Record<string, string>, spec: ServiceSpec): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (!CREDENTIAL.test(key)) continue;
    const required = REQUIRED_VAR.exec(value);
    const variable = OWN_SECRET_VALUE[spec.name]?.[key] ?? key;
    if (SECRET_AUDIENCE[key] && required?.[1] !== variable) {
      problems.push(`${where} ${key} must come from the environment as \${${variable}:?...}`);
    } else if (!required && !/^\$\{\w+:-\}$/.test(value)) {
      problems.push(`${where} ${key} is written into the file; take it from a variable`);
    }
  }
  for (const key of forbiddenSecrets(spec)) {
    if (key in env)
      problems.push(`${where} is given ${key}, which only ${SECRET_AUDIENCE[key]?.join(', ')} may hold`);
  }
  // Passwords inside URLs (DATABASE_URL, REDIS_URL, …) are required variables as well.
  for (const [key, value] of Object.entries(env)) {
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^@]*)@/i.exec(value)?.[1];
    if (password !== undefined && !REQUIRED_VAR.test(password))
      problems.push(`${where} ${key} carries a password that is not a \${NAME:?...} variable`);
  }
  const redisPassword = /^redis:\/\/:([^@]*)@/.exec(env.REDIS_URL ?? '')?.[1] ?? '';
  if (env.REDIS_URL && REQUIRED_VAR.exec(redisPassword)?.[1] !== 'REDIS_PASSWORD') {
    problems.push(`${where} REDIS_URL does not carry the password as \${REDIS_PASSWORD:?...}`);
  }
  if (env.TZ !== undefined && !/^\$\{TZ:-[A-Za-z_]+(\/[A-Za-z_]+)*\}$/.test(env.TZ)) {
    problems.push(`${where} TZ=${env.TZ} is not the one setting \${TZ:-<zone>}`);
  }
  return problems;
}

/** Metrics on 9464 inside the network (exposed; the publishing check keeps it off the host), and
 *  trace export optional: the endpoint only from an optional variable. */
function checkTelemetry(where: string, svc: ComposeService, env: Record<string, string>): string[] {
  const problems: string[] = [];
  if (!(svc.expose ?? []).map(String).includes(String(METRICS_PORT)))
    problems.push(`${where} does not expose the metrics port ${METRICS_PORT}`);
  if (env.METRICS_PORT !== undefined && Number(env.METRICS_PORT) !== METRICS_PORT)
    problems.push(`${where} METRICS_PORT=${env.METRICS_PORT}, expected ${METRICS_PORT}`);
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint !== undefined && endpoint !== '${OTEL_EXPORTER_OTLP_ENDPOINT:-}')
    problems.push(
      `${where} OTEL_EXPORTER_OTLP_ENDPOINT is not the optional \${OTEL_EXPORTER_OTLP_ENDPOINT:-}`,
    );
  return problems;
}

export function checkCompose(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  // The sandbox worker is checked apart (compose-sandbox.ts): it is no service and holds no secret.
  const expected = new Set<string>([...STORES, ...SERVICES.map((s) => s.name), SANDBOX_WORKER]);
  for (const name of Object.keys(services)) {
    if (!expected.has(name)) problems.push(`compose: unexpected service "${name}"`);
  }

  // Backing servers
  for (const store of STORES) {
    const svc = services[store];
    if (!svc) {
      problems.push(`compose: backing server "${store}" missing`);
      continue;
    }
    if (!STORE_IMAGES[store].test(svc.image ?? '')) {
      problems.push(`compose: ${store} image "${svc.image}" does not match ${STORE_IMAGES[store]}`);
    }
    if (!healthcheckCommand(svc.healthcheck)) problems.push(`compose: ${store} has no healthcheck`);
  }
  const redis = services.redis;
  if (redis) {
    const command = [redis.command ?? ''].flat().join(' ');
    const redisEnv = composeEnv(redis);
    if (
      !/--requirepass "\$\$REDIS_PASSWORD"/.test(command) ||
      !REQUIRED_VAR.test(redisEnv.REDIS_PASSWORD ?? '')
    ) {
      problems.push('compose: redis does not require the password from ${REDIS_PASSWORD:?...}');
    }
    // Sessions and revocations share it: bounded memory that refuses writes rather than evicting.
    if (!/--maxmemory "\$\$REDIS_MAXMEMORY"/.test(command) || !redisEnv.REDIS_MAXMEMORY) {
      problems.push('compose: redis has no --maxmemory from REDIS_MAXMEMORY');
    }
    if (!/--maxmemory-policy noeviction\b/.test(command)) {
      problems.push('compose: redis does not run --maxmemory-policy noeviction');
    }
  }
  const gatewayEnv = services.gateway ? composeEnv(services.gateway) : {};
  if (services.gateway && gatewayEnv.TRUST_PROXY !== '${TRUST_PROXY:-false}') {
    problems.push('compose: gateway TRUST_PROXY is not the one setting ${TRUST_PROXY:-false}');
  }
  const postgres = services.postgres;
  if (postgres) {
    const command = [postgres.command ?? ''].flat().join(' ');
    if (!/shared_preload_libraries=pg_stat_statements/.test(command)) {
      problems.push('compose: postgres does not preload pg_stat_statements');
    }
    const init = (postgres.volumes ?? [])
      .map((v) => (typeof v === 'string' ? v.split(':') : [v.source ?? '', v.target ?? '']))
      .find(([, target]) => target === '/docker-entrypoint-initdb.d');
    if (!init?.[0] || !existsSync(resolve(DEPLOY, init[0]))) {
      problems.push('compose: postgres has no init script directory mounted at /docker-entrypoint-initdb.d');
    }
  }
  const kafkaEnv = services.kafka ? composeEnv(services.kafka) : {};
  if (services.kafka) {
    const roles = (kafkaEnv.KAFKA_PROCESS_ROLES ?? '').split(',').map((r) => r.trim());
    if (!roles.includes('broker') || !roles.includes('controller')) {
      problems.push('compose: kafka is not a combined KRaft broker+controller (KAFKA_PROCESS_ROLES)');
    }
    for (const key of [
      'KAFKA_NODE_ID',
      'KAFKA_CONTROLLER_QUORUM_VOTERS',
      'KAFKA_CONTROLLER_LISTENER_NAMES',
    ]) {
      if (!kafkaEnv[key]) problems.push(`compose: kafka is missing ${key}`);
    }
  }

  // Platform services
  for (const spec of SERVICES) {
    const svc = services[spec.name];
    if (!svc) {
      problems.push(`compose: service "${spec.name}" missing`);
      continue;
    }
    const where = `compose: ${spec.name}`;

    // Image build: context is the repository root, Dockerfile exists and builds this package.
    const build = typeof svc.build === 'string' ? { context: svc.build } : svc.build;
    if (!build) {
      problems.push(`${where} has no build section`);
    } else {
      if (resolve(DEPLOY, build.context ?? '.') !== REPO) {
        problems.push(`${where} build context "${build.context}" is not the repository root`);
      }
      const dockerfile = resolve(resolve(DEPLOY, build.context ?? '.'), build.dockerfile ?? 'Dockerfile');
      if (!existsSync(dockerfile)) problems.push(`${where} Dockerfile ${build.dockerfile} does not exist`);
      else
        problems.push(
          ...checkDockerfile(dockerfile, spec, buildArgs(build.args)).map((p) => `${where}: ${p}`),
        );
    }

    // Health: the check the image ships, in the right mode.
    const hc = healthcheckCommand(svc.healthcheck);
    if (!hc) problems.push(`${where} has no healthcheck`);
    else if (!hc.includes(`healthcheck.mjs ${spec.protocol}`)) {
      problems.push(`${where} healthcheck does not run "healthcheck.mjs ${spec.protocol}": ${hc}`);
    }

    // Start order: healthy stores first; the gateway after every gRPC service.
    const deps = dependsOn(svc);
    const needs = [...spec.stores, ...(spec.protocol === 'http' ? GRPC_SERVICES.map((g) => g.name) : [])];
    for (const dep of needs) {
      if (deps[dep] !== 'service_healthy') problems.push(`${where} does not depend on ${dep} being healthy`);
    }
    for (const dep of Object.keys(deps)) {
      if (!services[dep]) problems.push(`${where} depends on unknown service ${dep}`);
    }

    // Environment
    const env = composeEnv(svc);
    for (const key of requiredEnv(spec)) {
      if (!env[key]) problems.push(`${where} does not set ${key}`);
    }
    const portVar = spec.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT';
    if (env[portVar] && Number(env[portVar]) !== spec.port) {
      problems.push(`${where} ${portVar}=${env[portVar]}, expected ${spec.port}`);
    }
    problems.push(...checkCredentials(where, env, spec));
    problems.push(...checkTelemetry(where, svc, env));
    for (const g of GRPC_SERVICES) {
      const addr = env[grpcAddrVar(g.name)];
      if (addr && addr !== `${g.name}:${g.port}`) {
        problems.push(`${where} ${grpcAddrVar(g.name)}=${addr}, expected ${g.name}:${g.port}`);
      }
    }
    if (env.DATABASE_URL) {
      const url = new URL(env.DATABASE_URL.replace(/\$\{[^}]*\}/g, 'x'));
      if (url.hostname !== 'postgres' || url.pathname !== `/${spec.name}`) {
        problems.push(`${where} DATABASE_URL should be postgres://…@postgres:5432/${spec.name}`);
      }
    }
    if (env.MONGO_URL && new URL(env.MONGO_URL).hostname !== 'mongo') {
      problems.push(`${where} MONGO_URL does not point at the mongo service`);
    }
    if (env.REDIS_URL && new URL(env.REDIS_URL.replace(/\$\{[^}]*\}/g, 'x')).hostname !== 'redis') {
      problems.push(`${where} REDIS_URL does not point at the redis service`);
    }
    const advertised = (kafkaEnv.KAFKA_ADVERTISED_LISTENERS ?? '').replace(/[A-Z_]+:\/\//g, '').split(',');
    if (env.KAFKA_BROKERS && !env.KAFKA_BROKERS.split(',').every((b) => advertised.includes(b))) {
      problems.push(`${where} KAFKA_BROKERS=${env.KAFKA_BROKERS} is not a listener kafka advertises`);
    }
  }

  // Publishing: the gateway's 8080 and nothing else.
  for (const [name, svc] of Object.entries(services)) {
    const ports = svc.ports ?? [];
    if (name === 'gateway') {
      if (ports.length !== 1 || containerPort(ports[0] ?? '') !== 8080) {
        problems.push(
          `compose: gateway must publish exactly container port 8080, has ${JSON.stringify(ports)}`,
        );
      }
    } else if (ports.length > 0) {
      problems.push(`compose: ${name} publishes ports ${JSON.stringify(ports)}; only the gateway may`);
    }
  }
  return problems;
}
