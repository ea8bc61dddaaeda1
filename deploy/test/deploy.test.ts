// Checks the deployment descriptors against the platform's topology: docker-compose.yml with its
// Dockerfiles and build-context filters, and every Kubernetes manifest under deploy/k8s. Needs no
// Docker engine and no cluster. When `kubectl` is on PATH, the kustomizations are also rendered
// (`kubectl kustomize`) and the rendered output must pass the same checks.
//
// Each check collects every problem it finds (a list of strings) so a failure names all of them at
// once; the "catches" tests break a copy of the real descriptors on purpose to prove the checks bite.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

const DEPLOY = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(DEPLOY, '..');
const DOCKER = join(DEPLOY, 'docker');
const K8S = join(DEPLOY, 'k8s');
const HEALTHCHECK_SCRIPT = join(DOCKER, 'healthcheck.mjs');

// ------------------------------------------------------------------------------------------------
// The topology (docs/development.md, ARCHITECTURE.md)

type Store = 'postgres' | 'redis' | 'kafka' | 'mongo';

interface ServiceSpec {
  name: string;
  port: number;
  protocol: 'http' | 'grpc';
  stores: Store[];
}

const SERVICES: ServiceSpec[] = [
  { name: 'gateway', port: 8080, protocol: 'http', stores: ['redis', 'kafka'] },
  { name: 'identity', port: 50061, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'apikeys', port: 50062, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'notifications', port: 50063, protocol: 'grpc', stores: ['mongo', 'redis', 'kafka'] },
  { name: 'models', port: 50064, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'workflows', port: 50065, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
  { name: 'observability', port: 50066, protocol: 'grpc', stores: ['postgres', 'redis', 'kafka'] },
];
const GRPC_SERVICES = SERVICES.filter((s) => s.protocol === 'grpc');

const STORE_IMAGES: Record<Store, RegExp> = {
  postgres: /^postgres:16([.-]|$)/,
  redis: /^redis:7([.-]|$)/,
  kafka: /^apache\/kafka:3\.9([.-]|$)/,
  mongo: /^mongo:7([.-]|$)/,
};
const STORES = Object.keys(STORE_IMAGES) as Store[];

const grpcAddrVar = (service: string): string => `${service.toUpperCase()}_GRPC_ADDR`;

/** Every variable the service validates at start (docs/development.md, "Environment variables"). */
function requiredEnv(s: ServiceSpec): string[] {
  const env = ['NODE_ENV', 'LOG_LEVEL', 'SECRET_KEY', 'REDIS_URL', 'KAFKA_BROKERS'];
  env.push(...GRPC_SERVICES.map((g) => grpcAddrVar(g.name)));
  env.push(s.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT');
  if (s.stores.includes('postgres')) env.push('DATABASE_URL');
  if (s.stores.includes('mongo')) env.push('MONGO_URL');
  return env;
}

// ------------------------------------------------------------------------------------------------
// Small helpers

const read = (path: string): string => readFileSync(path, 'utf8');
const clone = <T>(value: T): T => structuredClone(value);
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function yamlDocuments(path: string): unknown[] {
  return parseAllDocuments(read(path)).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

function hasKubectl(): boolean {
  try {
    return spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
  } catch {
    return false;
  }
}

function runNode(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', HEALTHCHECK_TIMEOUT_MS: '2000', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stderr }));
  });
}

// ------------------------------------------------------------------------------------------------
// docker-compose.yml

interface ComposeHealthcheck {
  test?: string | string[];
  disable?: boolean;
}
interface ComposeService {
  image?: string;
  command?: string | string[];
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, unknown> | string[];
  ports?: (string | number | { target?: number | string })[];
  healthcheck?: ComposeHealthcheck;
  depends_on?: string[] | Record<string, { condition?: string }>;
  volumes?: (string | { source?: string; target?: string })[];
}
interface ComposeFile {
  services?: Record<string, ComposeService>;
}

const COMPOSE_PATH = join(DEPLOY, 'docker-compose.yml');
const loadCompose = (): ComposeFile => parse(read(COMPOSE_PATH), { merge: true }) as ComposeFile;

function composeEnv(svc: ComposeService): Record<string, string> {
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

function checkCompose(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  const expected = new Set<string>([...STORES, ...SERVICES.map((s) => s.name)]);
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
      else problems.push(...checkDockerfile(dockerfile, spec).map((p) => `${where}: ${p}`));
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
    if (env.SECRET_KEY && !/^\$\{SECRET_KEY:\?[^}]*\}$/.test(env.SECRET_KEY)) {
      problems.push(`${where} SECRET_KEY must come from the environment as \${SECRET_KEY:?...}`);
    }
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
    if (env.REDIS_URL && new URL(env.REDIS_URL).hostname !== 'redis') {
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

// ------------------------------------------------------------------------------------------------
// Dockerfiles and their build-context filters

const HEALTHCHECK_IN_IMAGE = '/usr/local/lib/platform/healthcheck.mjs';

/** Instructions with line continuations joined and comments dropped. */
function dockerInstructions(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // comment inside a continuation
    if (line.endsWith('\\')) current += `${line.slice(0, -1)} `;
    else {
      lines.push((current + line).trim());
      current = '';
    }
  }
  return lines;
}

function buildStage(text: string): string[] {
  const ins = dockerInstructions(text);
  const start = ins.findIndex((i) => /^FROM\s.*\sAS\s+build$/i.test(i));
  const end = ins.findIndex((i, n) => n > start && /^FROM\s/i.test(i));
  return start < 0 ? [] : ins.slice(start, end < 0 ? undefined : end);
}

function checkDockerfile(path: string, spec: ServiceSpec): string[] {
  const problems: string[] = [];
  const name = relative(REPO, path);
  const ins = dockerInstructions(read(path));
  const args = new Map<string, string>();
  for (const i of ins) {
    const m = /^ARG\s+(\w+)=(\S+)$/.exec(i);
    if (m?.[1] && m[2]) args.set(m[1], m[2]);
  }
  const froms = ins
    .filter((i) => /^FROM\s/i.test(i))
    .map((i) => (i.split(/\s+/)[1] ?? '').replace(/\$\{(\w+)\}/g, (_, v: string) => args.get(v) ?? ''));
  if (froms.length < 2) problems.push(`${name} is not multi-stage`);
  for (const image of froms) {
    if (image !== 'node:20-bookworm-slim')
      problems.push(`${name} builds FROM ${image}, not node:20-bookworm-slim`);
  }
  const has = (re: RegExp): boolean => ins.some((i) => re.test(i));
  if (!has(/^RUN\s+--mount=type=cache\S*\s.*pnpm install --frozen-lockfile/)) {
    problems.push(`${name} does not run pnpm install --frozen-lockfile with a cache mount`);
  }
  if (!has(new RegExp(`pnpm deploy --filter @platform/${spec.name} --prod /out(\\s|$)`))) {
    problems.push(`${name} does not pnpm deploy --filter @platform/${spec.name}`);
  }
  if (!has(new RegExp(`^EXPOSE\\s+${spec.port}$`))) problems.push(`${name} does not EXPOSE ${spec.port}`);
  const portVar = spec.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT';
  if (!has(new RegExp(`^ENV\\s.*\\b${portVar}=${spec.port}\\b`))) {
    problems.push(`${name} does not default ${portVar}=${spec.port}`);
  }
  if (!has(new RegExp(`^COPY\\s+deploy/docker/healthcheck\\.mjs\\s+${HEALTHCHECK_IN_IMAGE}$`))) {
    problems.push(`${name} does not copy healthcheck.mjs to ${HEALTHCHECK_IN_IMAGE}`);
  }
  if (!has(new RegExp(`^HEALTHCHECK\\s.*CMD.*${HEALTHCHECK_IN_IMAGE}", "${spec.protocol}"`))) {
    problems.push(`${name} has no HEALTHCHECK running healthcheck.mjs ${spec.protocol}`);
  }
  const users = ins.filter((i) => /^USER\s/i.test(i)).map((i) => i.split(/\s+/)[1] ?? '');
  const lastUser = users.at(-1) ?? 'root';
  if (/^(root|0)(:|$)/.test(lastUser)) problems.push(`${name} runs as root`);
  else if (!/^\d+(:\d+)?$/.test(lastUser)) {
    problems.push(`${name} USER ${lastUser} is not numeric (Kubernetes cannot verify runAsNonRoot)`);
  }
  if (!has(/^CMD\s+\["node",\s*"dist\/main\.js"\]$/))
    problems.push(`${name} does not start node dist/main.js`);

  // The build-context filter BuildKit uses for this Dockerfile.
  const ignoreFile = `${path}.dockerignore`;
  if (!existsSync(ignoreFile)) problems.push(`${name}.dockerignore is missing`);
  else if (read(ignoreFile) !== read(join(DOCKER, '.dockerignore'))) {
    problems.push(`${name}.dockerignore differs from deploy/docker/.dockerignore`);
  }
  return problems;
}

/** A .dockerignore pattern as a regular expression over slash-separated context paths. */
function dockerGlob(glob: string): RegExp {
  const g = glob.replace(/^\/+|\/+$/g, '');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i] ?? '';
    if (c === '*' && g[i + 1] === '*') {
      i++;
      if (g[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Docker's .dockerignore semantics, enough for these files: the last matching pattern wins, a
 *  pattern matching a parent directory matches everything under it, `!` re-includes. */
function dockerIgnored(patterns: string[], path: string): boolean {
  const parts = path.split('/');
  const selfAndParents = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const re = dockerGlob(negate ? line.slice(1) : line);
    if (selfAndParents.some((p) => re.test(p))) ignored = !negate;
  }
  return ignored;
}

// ------------------------------------------------------------------------------------------------
// Kubernetes

interface Probe {
  grpc?: { port?: number | string; service?: string };
  httpGet?: { path?: string; port?: number | string };
  tcpSocket?: { port?: number | string };
  exec?: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string };
    configMapKeyRef?: { name?: string; key?: string };
  };
}
interface Container {
  name?: string;
  image?: string;
  ports?: { name?: string; containerPort?: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name?: string }; secretRef?: { name?: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; allowPrivilegeEscalation?: boolean };
}
interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string>; [label: string]: unknown };
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        containers?: Container[];
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
      };
    };
    ports?: { name?: string; port?: number; targetPort?: number | string }[];
    clusterIP?: string;
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: {
      type?: string;
      resource?: { name?: string; target?: { type?: string; averageUtilization?: number } };
    }[];
    rules?: {
      http?: {
        paths?: { backend?: { service?: { name?: string; port?: { name?: string; number?: number } } } }[];
      };
    }[];
  };
}

interface Kustomization {
  resources?: string[];
  components?: string[];
  patches?: { path?: string; patch?: string; target?: unknown }[];
  patchesStrategicMerge?: string[];
  configMapGenerator?: {
    name?: string;
    envs?: string[];
    files?: string[];
    literals?: string[];
    behavior?: string;
  }[];
  secretGenerator?: { name?: string; envs?: string[]; files?: string[]; literals?: string[] }[];
}

function findKustomizationDirs(dir: string): string[] {
  const found = existsSync(join(dir, 'kustomization.yaml')) ? [dir] : [];
  for (const entry of readdirSync(dir)) {
    const child = join(dir, entry);
    if (statSync(child).isDirectory()) found.push(...findKustomizationDirs(child));
  }
  return found;
}

const readKustomization = (dir: string): Kustomization =>
  parse(read(join(dir, 'kustomization.yaml'))) as Kustomization;

function parseEnvLines(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq > 0) out[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return out;
}

/** Structural check of one kustomization: everything it lists exists and parses. */
function checkKustomizationFiles(dir: string): string[] {
  const problems: string[] = [];
  const where = relative(REPO, join(dir, 'kustomization.yaml'));
  let k: Kustomization;
  try {
    k = readKustomization(dir);
  } catch (err) {
    return [`${where} does not parse: ${String(err)}`];
  }
  const referenced = [
    ...(k.resources ?? []),
    ...(k.components ?? []),
    ...(k.patchesStrategicMerge ?? []),
    ...(k.patches ?? []).flatMap((p) => (p.path ? [p.path] : [])),
  ];
  if ((k.resources ?? []).length === 0) problems.push(`${where} lists no resources`);
  for (const ref of referenced) {
    const path = resolve(dir, ref);
    if (!existsSync(path)) {
      problems.push(`${where}: ${ref} does not exist`);
    } else if (statSync(path).isDirectory()) {
      if (!existsSync(join(path, 'kustomization.yaml')))
        problems.push(`${where}: ${ref} has no kustomization.yaml`);
    } else {
      try {
        const docs = yamlDocuments(path);
        if (docs.length === 0) problems.push(`${where}: ${ref} holds no document`);
        for (const doc of docs as K8sObject[]) {
          if (!doc.apiVersion || !doc.kind || !doc.metadata?.name) {
            problems.push(`${where}: ${ref} has a document without apiVersion/kind/metadata.name`);
          }
        }
      } catch (err) {
        problems.push(`${where}: ${ref} does not parse: ${String(err)}`);
      }
    }
  }
  for (const gen of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    for (const file of [...(gen.envs ?? []), ...(gen.files ?? []).map((f) => f.split('=').at(-1) ?? f)]) {
      if (!existsSync(resolve(dir, file)))
        problems.push(`${where}: generator ${gen.name} file ${file} does not exist`);
    }
  }
  // Every manifest in the folder is either listed or the deliberately unlisted secret example.
  for (const entry of readdirSync(dir)) {
    if (!/\.ya?ml$/.test(entry) || entry === 'kustomization.yaml' || entry === 'secret.example.yaml')
      continue;
    if (!referenced.includes(entry)) problems.push(`${where} does not list ${entry}`);
  }
  if ((k.resources ?? []).includes('secret.example.yaml'))
    problems.push(`${where} must not list secret.example.yaml`);
  return problems;
}

/** The objects a kustomization produces, without patches: resources (recursively) and generated
 *  ConfigMaps under their plain names. The rendered check covers patches and name hashes. */
function kustomizationObjects(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const objects: K8sObject[] = [];
  for (const ref of k.resources ?? []) {
    const path = resolve(dir, ref);
    if (statSync(path).isDirectory()) objects.push(...kustomizationObjects(path));
    else objects.push(...(yamlDocuments(path) as K8sObject[]));
  }
  for (const gen of k.configMapGenerator ?? []) {
    const data = {
      ...Object.assign({}, ...(gen.envs ?? []).map((f) => parseEnvLines(read(resolve(dir, f)).split('\n')))),
      ...parseEnvLines(gen.literals ?? []),
    } as Record<string, string>;
    const existing = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === gen.name);
    if (existing && gen.behavior === 'merge') existing.data = { ...existing.data, ...data };
    else objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: gen.name }, data });
  }
  return objects;
}

const SECRET_EXAMPLE = join(K8S, 'base', 'secret.example.yaml');

function secretExampleKeys(): Set<string> {
  const [secret] = yamlDocuments(SECRET_EXAMPLE) as K8sObject[];
  return new Set(Object.keys({ ...secret?.data, ...secret?.stringData }));
}

const labelsMatch = (
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

function probePort(probe: Probe | undefined, container: Container): number | undefined {
  const port = probe?.grpc?.port ?? probe?.httpGet?.port ?? probe?.tcpSocket?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** The topology checks on a set of Kubernetes objects (a raw base, or rendered output). */
function checkK8s(objects: K8sObject[], label: string, secretKeys: Set<string>): string[] {
  const problems: string[] = [];
  const find = (kind: string, name: string) =>
    objects.filter((o) => o.kind === kind && o.metadata?.name === name);
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  const deployments = objects.filter((o) => o.kind === 'Deployment');

  for (const spec of SERVICES) {
    const where = `${label}: ${spec.name}`;
    const [deployment, ...extraDeployments] = find('Deployment', spec.name);
    const [service] = find('Service', spec.name);
    const [hpa] = find('HorizontalPodAutoscaler', spec.name);
    if (!deployment) problems.push(`${where} has no Deployment`);
    if (extraDeployments.length > 0) problems.push(`${where} has more than one Deployment`);
    if (!service) problems.push(`${where} has no Service`);
    if (!hpa) problems.push(`${where} has no HorizontalPodAutoscaler`);
    if (service && spec.protocol === 'grpc' && service.spec?.clusterIP !== 'None') {
      problems.push(
        `${where} Service is not headless (clusterIP: None), so gRPC round_robin cannot see the pods`,
      );
    }
    if (!deployment) continue;

    const podLabels = deployment.spec?.template?.metadata?.labels;
    if (!labelsMatch(deployment.spec?.selector?.matchLabels, podLabels)) {
      problems.push(`${where} Deployment selector does not match its pod labels`);
    }
    if (deployment.spec?.replicas !== undefined) {
      problems.push(`${where} Deployment sets replicas although its HPA owns them`);
    }
    const podSpec = deployment.spec?.template?.spec;
    const containers = podSpec?.containers ?? [];
    const container = containers.find((c) => c.name === spec.name) ?? containers[0];
    if (!container) {
      problems.push(`${where} Deployment has no container`);
      continue;
    }
    if (!container.image?.includes(`agent-platform/${spec.name}`)) {
      problems.push(`${where} container image ${container.image} is not agent-platform/${spec.name}`);
    }
    if (!container.ports?.some((p) => p.containerPort === spec.port)) {
      problems.push(`${where} container does not declare containerPort ${spec.port}`);
    }

    // Probes: HTTP health for the gateway, native gRPC health for the services, on the service port.
    for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe'] as const) {
      const probe = container[kind];
      if (!probe) {
        if (kind !== 'startupProbe') problems.push(`${where} has no ${kind}`);
        continue;
      }
      if (spec.protocol === 'http') {
        if (probe.httpGet?.path !== '/api/v1/health')
          problems.push(`${where} ${kind} is not httpGet /api/v1/health`);
      } else if (!probe.grpc) {
        problems.push(`${where} ${kind} is not a grpc probe`);
      } else if (typeof probe.grpc.port !== 'number') {
        problems.push(`${where} ${kind} grpc port must be a number`);
      }
      if (probePort(probe, container) !== spec.port)
        problems.push(`${where} ${kind} does not probe port ${spec.port}`);
    }

    // Resources and security
    for (const section of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[section]?.[resource] === undefined) {
          problems.push(`${where} has no ${resource} ${section.slice(0, -1)}`);
        }
      }
    }
    const nonRoot = container.securityContext?.runAsNonRoot ?? podSpec?.securityContext?.runAsNonRoot;
    const uid = container.securityContext?.runAsUser ?? podSpec?.securityContext?.runAsUser;
    if (nonRoot !== true) problems.push(`${where} does not set runAsNonRoot: true`);
    if (uid === 0) problems.push(`${where} runs as uid 0`);

    // Environment: every variable is set, by value, ConfigMap or the platform-secrets Secret.
    const fromConfigMaps = (container.envFrom ?? []).flatMap((e) => {
      if (!e.configMapRef) return [];
      const cm = configMaps.find((c) => c.metadata?.name === e.configMapRef?.name);
      if (!cm) problems.push(`${where} envFrom ConfigMap ${e.configMapRef.name} does not exist`);
      return Object.entries(cm?.data ?? {});
    });
    const values = new Map<string, string | undefined>(fromConfigMaps);
    for (const e of container.env ?? []) {
      const secretRef = e.valueFrom?.secretKeyRef;
      const cmRef = e.valueFrom?.configMapKeyRef;
      if (secretRef) {
        if (secretRef.name !== 'platform-secrets') {
          problems.push(`${where} ${e.name} reads Secret ${secretRef.name}, not platform-secrets`);
        } else if (!secretKeys.has(secretRef.key ?? '')) {
          problems.push(
            `${where} ${e.name} reads key ${secretRef.key} that secret.example.yaml does not have`,
          );
        }
        values.set(e.name, undefined);
      } else if (cmRef) {
        const cm = configMaps.find((c) => c.metadata?.name === cmRef.name);
        if (!cm?.data?.[cmRef.key ?? ''])
          problems.push(`${where} ${e.name} reads missing ConfigMap key ${cmRef.key}`);
        values.set(e.name, cm?.data?.[cmRef.key ?? '']);
      } else {
        values.set(e.name, e.value);
      }
    }
    for (const key of requiredEnv(spec)) {
      if (!values.has(key)) problems.push(`${where} does not set ${key}`);
    }
    for (const key of ['SECRET_KEY', 'DATABASE_URL', 'MONGO_URL']) {
      if (
        values.has(key) &&
        !(container.env ?? []).some((e) => e.name === key && e.valueFrom?.secretKeyRef)
      ) {
        problems.push(`${where} ${key} must come from the platform-secrets Secret`);
      }
    }
    const portVar = spec.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT';
    if (values.has(portVar) && Number(values.get(portVar)) !== spec.port) {
      problems.push(`${where} ${portVar}=${values.get(portVar)}, expected ${spec.port}`);
    }
    for (const g of GRPC_SERVICES) {
      const addr = values.get(grpcAddrVar(g.name));
      const target = find('Service', g.name)[0];
      const [host, port] = (addr ?? '').split(':');
      if (
        addr !== undefined &&
        (host !== g.name || !target?.spec?.ports?.some((p) => p.port === Number(port)))
      ) {
        problems.push(
          `${where} ${grpcAddrVar(g.name)}=${addr} does not name the ${g.name} Service and its port`,
        );
      }
    }

    // Service: selects exactly this Deployment's pods and targets its containerPort.
    if (service) {
      const selector = service.spec?.selector as Record<string, string> | undefined;
      if (!labelsMatch(selector, podLabels))
        problems.push(`${where} Service selector does not match the pod labels`);
      const others = deployments.filter(
        (d) => d !== deployment && labelsMatch(selector, d.spec?.template?.metadata?.labels),
      );
      if (others.length > 0)
        problems.push(`${where} Service also selects ${others.map((d) => d.metadata?.name)}`);
      const ports = service.spec?.ports ?? [];
      if (ports.length === 0) problems.push(`${where} Service has no ports`);
      for (const p of ports) {
        const target = p.targetPort ?? p.port;
        const resolved =
          typeof target === 'number'
            ? target
            : container.ports?.find((cp) => cp.name === target)?.containerPort;
        if (resolved !== spec.port) {
          problems.push(`${where} Service port ${p.port} targets ${target}, not containerPort ${spec.port}`);
        }
      }
    }

    // HPA: autoscaling/v2 on this Deployment, CPU at 70%.
    if (hpa) {
      if (hpa.apiVersion !== 'autoscaling/v2')
        problems.push(`${where} HPA is ${hpa.apiVersion}, not autoscaling/v2`);
      const ref = hpa.spec?.scaleTargetRef;
      if (ref?.kind !== 'Deployment' || ref.name !== spec.name || ref.apiVersion !== 'apps/v1') {
        problems.push(`${where} HPA does not target Deployment ${spec.name}`);
      }
      const cpu = hpa.spec?.metrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (cpu?.resource?.target?.type !== 'Utilization' || cpu.resource.target.averageUtilization !== 70) {
        problems.push(`${where} HPA does not scale on 70% CPU utilization`);
      }
      const min = hpa.spec?.minReplicas ?? 1;
      if (!hpa.spec?.maxReplicas || hpa.spec.maxReplicas < min)
        problems.push(`${where} HPA max < min replicas`);
    }
  }

  // The gateway is reached from outside through an Ingress on its Service.
  const gatewayService = find('Service', 'gateway')[0];
  const backends = objects
    .filter((o) => o.kind === 'Ingress')
    .flatMap((o) => o.spec?.rules ?? [])
    .flatMap((r) => r.http?.paths ?? [])
    .map((p) => p.backend?.service);
  const toGateway = backends.filter((b) => b?.name === 'gateway');
  if (toGateway.length === 0) problems.push(`${label}: no Ingress routes to the gateway Service`);
  for (const b of toGateway) {
    const ok = gatewayService?.spec?.ports?.some(
      (p) => p.name === b?.port?.name || p.port === b?.port?.number,
    );
    if (!ok)
      problems.push(
        `${label}: Ingress backend port ${JSON.stringify(b?.port)} is not a gateway Service port`,
      );
  }
  if (backends.some((b) => b?.name !== 'gateway'))
    problems.push(`${label}: an Ingress routes to something other than the gateway`);
  return problems;
}

// ================================================================================================

describe('docker compose', () => {
  it('has the backing servers, the seven services and only the gateway published', () => {
    expect(checkCompose(loadCompose())).toEqual([]);
  });

  it('creates every service database and pg_stat_statements in the Postgres init script', () => {
    const dir = join(DOCKER, 'postgres-init');
    const sql = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => read(join(dir, f)))
      .join('\n');
    expect(sql).toMatch(/CREATE EXTENSION IF NOT EXISTS pg_stat_statements/i);
    const compose = loadCompose();
    const databases = SERVICES.flatMap((s) => {
      const url = composeEnv(compose.services?.[s.name] ?? {}).DATABASE_URL;
      return url ? [url.slice(url.lastIndexOf('/') + 1)] : [];
    });
    expect(databases.sort()).toEqual(['apikeys', 'identity', 'models', 'observability', 'workflows']);
    for (const db of databases) expect(sql).toMatch(new RegExp(`CREATE DATABASE ${db};`, 'i'));
  });

  describe('catches', () => {
    const problemsAfter = (
      mutate: (c: ComposeFile & { services: Record<string, ComposeService> }) => void,
    ) => {
      const compose = clone(loadCompose()) as ComposeFile & { services: Record<string, ComposeService> };
      mutate(compose);
      return checkCompose(compose).join('\n');
    };
    it('a missing service', () => {
      expect(problemsAfter((c) => delete c.services.identity)).toMatch(/service "identity" missing/);
    });
    it('a wrong backing-server version', () => {
      expect(problemsAfter((c) => (c.services.kafka!.image = 'apache/kafka:4.0.0'))).toMatch(/kafka image/);
    });
    it('a second published port', () => {
      expect(problemsAfter((c) => (c.services.postgres!.ports = ['5432:5432']))).toMatch(
        /postgres publishes/,
      );
    });
    it('a missing environment variable', () => {
      expect(
        problemsAfter((c) => delete (c.services.models!.environment as Record<string, unknown>).DATABASE_URL),
      ).toMatch(/models does not set DATABASE_URL/);
    });
    it('a missing dependency or healthcheck', () => {
      const out = problemsAfter((c) => {
        delete (c.services.notifications!.depends_on as Record<string, unknown>).mongo;
        delete c.services.workflows!.healthcheck;
      });
      expect(out).toMatch(/notifications does not depend on mongo/);
      expect(out).toMatch(/workflows has no healthcheck/);
    });
    it('a Dockerfile that does not exist', () => {
      expect(
        problemsAfter(
          (c) => (c.services.apikeys!.build = { context: '..', dockerfile: 'deploy/docker/Dockerfile.nope' }),
        ),
      ).toMatch(/Dockerfile\.nope does not exist/);
    });
  });
});

describe('Dockerfiles', () => {
  it.each(SERVICES.map((s) => [s.name, s] as const))(
    '%s builds its package, non-root, with a healthcheck',
    (_, s) => {
      expect(checkDockerfile(join(DOCKER, `Dockerfile.${s.name}`), s)).toEqual([]);
    },
  );

  it('share one word-for-word build stage (built once, cached for all seven) up to pnpm deploy', () => {
    const stages = SERVICES.map((s) =>
      buildStage(read(join(DOCKER, `Dockerfile.${s.name}`))).filter((i) => !i.includes('pnpm deploy')),
    );
    expect(stages[0]?.length).toBeGreaterThan(3);
    for (const stage of stages) expect(stage).toEqual(stages[0]);
  });

  it('catch a wrong package filter or port', () => {
    const gateway = SERVICES[0]!;
    const asIdentity = { ...gateway, name: 'identity', port: 50061, protocol: 'grpc' as const };
    const out = checkDockerfile(join(DOCKER, 'Dockerfile.gateway'), asIdentity).join('\n');
    expect(out).toMatch(/pnpm deploy --filter @platform\/identity/);
    expect(out).toMatch(/EXPOSE 50061/);
  });

  it('send the sources and the healthcheck script but no host artefacts or local data', () => {
    const patterns = read(join(DOCKER, '.dockerignore')).split('\n');
    const sent = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'tsconfig.base.json',
      'proto/platform/identity/v1/identity.proto',
      'packages/errors/src/index.ts',
      'packages/errors/package.json',
      'services/gateway/src/main.ts',
      'services/gateway/tsconfig.json',
      'deploy/docker/healthcheck.mjs',
    ];
    const dropped = [
      'node_modules/yaml/index.js',
      'services/gateway/node_modules/express/index.js',
      'services/gateway/dist/main.js',
      'packages/errors/tsconfig.tsbuildinfo',
      'packages/contracts/src/gen/platform/identity/v1/identity.ts',
      '.stack/postgres/PG_VERSION',
      '.git/HEAD',
      'deploy/local/stack.sh',
      'deploy/docker-compose.yml',
    ];
    expect(sent.filter((p) => dockerIgnored(patterns, p))).toEqual([]);
    expect(dropped.filter((p) => !dockerIgnored(patterns, p))).toEqual([]);
  });
});

describe('healthcheck.mjs', () => {
  // A gRPC health server speaking the wire protocol directly (h2c, length-prefixed protobuf).
  async function withGrpcHealthServer(
    statuses: Record<string, number>,
    run: (port: number) => Promise<void>,
  ) {
    const server = http2.createServer();
    server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const body = Buffer.concat(chunks).subarray(5);
        const service =
          body.length > 2 && body[0] === 0x0a ? body.subarray(2, 2 + (body[1] ?? 0)).toString() : '';
        const status = headers[':path'] === '/grpc.health.v1.Health/Check' ? statuses[service] : undefined;
        if (status === undefined) {
          stream.respond(
            { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5' },
            { endStream: true },
          );
          return;
        }
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(Buffer.from([0, 0, 0, 0, 2, 0x08, status]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await run((server.address() as AddressInfo).port);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  it('grpc mode: healthy only when the server answers SERVING', async () => {
    await withGrpcHealthServer({ '': 1, down: 2 }, async (port) => {
      expect((await runNode([HEALTHCHECK_SCRIPT, 'grpc'], { GRPC_PORT: String(port) })).code).toBe(0);
      const down = await runNode([HEALTHCHECK_SCRIPT, 'grpc', `127.0.0.1:${port}`, 'down']);
      expect(down).toMatchObject({ code: 1, stderr: expect.stringMatching(/NOT_SERVING/) });
      const unknown = await runNode([HEALTHCHECK_SCRIPT, 'grpc', `127.0.0.1:${port}`, 'nope']);
      expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/grpc-status 5/) });
    });
  });

  it('grpc mode: nothing listening is unhealthy', async () => {
    const refused = await runNode([HEALTHCHECK_SCRIPT, 'grpc', '127.0.0.1:1']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('http mode: healthy only on a 2xx from /api/v1/health', async () => {
    const server = http.createServer((req, res) => {
      res.statusCode = req.url === '/api/v1/health' ? 200 : 503;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      expect((await runNode([HEALTHCHECK_SCRIPT, 'http'], { HTTP_PORT: String(port) })).code).toBe(0);
      expect((await runNode([HEALTHCHECK_SCRIPT, 'http', `http://127.0.0.1:${port}/down`])).code).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('kubernetes manifests', () => {
  const dirs = findKustomizationDirs(K8S);
  const secretKeys = secretExampleKeys();

  it('has a base and at least one overlay', () => {
    expect(dirs.map((d) => relative(K8S, d))).toEqual(
      expect.arrayContaining(['base', expect.stringMatching(/^overlays\//)]),
    );
  });

  it.each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s: every listed file exists and parses',
    (_, dir) => {
      expect(checkKustomizationFiles(dir)).toEqual([]);
    },
  );

  it('secret.example.yaml is an unlisted example of platform-secrets', () => {
    const [secret, ...rest] = yamlDocuments(SECRET_EXAMPLE) as K8sObject[];
    expect(rest).toEqual([]);
    expect(secret).toMatchObject({ kind: 'Secret', metadata: { name: 'platform-secrets' } });
    for (const dir of dirs)
      expect(readKustomization(dir).resources ?? []).not.toContain('secret.example.yaml');
    expect([...secretKeys]).toEqual(expect.arrayContaining(['SECRET_KEY', 'REDIS_URL', 'MONGO_URL']));
  });

  it.each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s: topology of the listed manifests',
    (label, dir) => {
      expect(checkK8s(kustomizationObjects(dir), label, secretKeys)).toEqual([]);
    },
  );

  it.skipIf(!hasKubectl()).each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s: rendered with kubectl kustomize',
    (label, dir) => {
      const out = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
      const objects = parseAllDocuments(out.stdout).map((d) => d.toJS() as K8sObject);
      expect(checkK8s(objects, `${label} (rendered)`, secretKeys)).toEqual([]);
      if (label.includes('overlays')) {
        const namespaces = new Set(
          objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata?.namespace),
        );
        expect(namespaces.size).toBe(1);
      }
    },
  );

  describe('catches', () => {
    const base = join(K8S, 'base');
    const problemsAfter = (mutate: (objects: K8sObject[]) => void) => {
      const objects = clone(kustomizationObjects(base));
      mutate(objects);
      return checkK8s(objects, 'base', secretKeys).join('\n');
    };
    const get = (objects: K8sObject[], kind: string, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata?.name === name)!;

    it('a missing HPA or Service', () => {
      const out = problemsAfter((objects) => {
        objects.splice(objects.indexOf(get(objects, 'HorizontalPodAutoscaler', 'workflows')), 1);
        objects.splice(objects.indexOf(get(objects, 'Service', 'models')), 1);
      });
      expect(out).toMatch(/workflows has no HorizontalPodAutoscaler/);
      expect(out).toMatch(/models has no Service/);
    });
    it('an HTTP probe on a gRPC service, or a probe on the wrong port', () => {
      const out = problemsAfter((objects) => {
        const c = get(objects, 'Deployment', 'identity').spec!.template!.spec!.containers![0]!;
        c.readinessProbe = { httpGet: { path: '/api/v1/health', port: 50061 } };
        c.livenessProbe = { grpc: { port: 50062 } };
      });
      expect(out).toMatch(/identity readinessProbe is not a grpc probe/);
      expect(out).toMatch(/identity livenessProbe does not probe port 50061/);
    });
    it('a selector that misses the pods, or a Service on the wrong port', () => {
      const out = problemsAfter((objects) => {
        get(objects, 'Service', 'apikeys').spec!.selector = { 'app.kubernetes.io/name': 'apikey' };
        get(objects, 'Service', 'observability').spec!.ports![0]!.targetPort = 50065;
      });
      expect(out).toMatch(/apikeys Service selector does not match/);
      expect(out).toMatch(/observability Service port .* not containerPort 50066/);
    });
    it('a missing variable or an unknown secret key', () => {
      const out = problemsAfter((objects) => {
        const c = get(objects, 'Deployment', 'notifications').spec!.template!.spec!.containers![0]!;
        c.env = c.env!.filter((e) => e.name !== 'MONGO_URL');
        const g = get(objects, 'Deployment', 'gateway').spec!.template!.spec!.containers![0]!;
        g.env!.find((e) => e.name === 'SECRET_KEY')!.valueFrom!.secretKeyRef!.key = 'JWT_KEY';
      });
      expect(out).toMatch(/notifications does not set MONGO_URL/);
      expect(out).toMatch(/gateway SECRET_KEY reads key JWT_KEY/);
    });
  });
});
