// The sandbox worker (issue 24: the code node's user JavaScript), checked on the base and on the
// rendered overlays: the workflows image with PROCESS_ROLE=sandbox, ONLY the variables it reads (no
// store, key, other service's address or OTLP endpoint, no ConfigMap or Secret loaded whole), its
// own Kafka user, no service-account token, no Service, nothing writable, and only the monitoring
// Prometheus let in (on the metrics port). Its egress is k8s-egress.ts's (checkSandboxEgress).
import type { K8sObject } from './k8s.js';
import { MONITORING_PROMETHEUS, ingressAllowed, type Peer } from './k8s-security.js';
import type { Obj } from './k8s-prod.js';
import { METRICS_PORT, SANDBOX_GRPC_PORT, SANDBOX_KAFKA_SECRET, SANDBOX_WORKER } from './topology.js';

/** Everything the sandbox worker reads (services/workflows/src/sandbox-worker/sandbox-config.ts). */
export const SANDBOX_ENV = [
  'PROCESS_ROLE',
  'GRPC_PORT',
  'METRICS_PORT',
  'SANDBOX_CONCURRENCY',
  'POD_NAME',
  'NODE_ENV',
  'LOG_LEVEL',
  'TZ',
  'KAFKA_BROKERS',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL',
  'KAFKA_TOPIC_MODE',
  'KAFKA_TOPIC_PARTITIONS',
  'QUEUE_TOPIC_PREFIX',
  'SHUTDOWN_DELAY_MS',
];
/** What the process that runs user code must never hold, named so a failure says which. */
export const FORBIDDEN_SANDBOX_ENV: RegExp[] = [
  /^DATABASE_URL$/,
  /^MONGO_URL$/,
  /^REDIS_URL$/,
  /^SECRET_KEY$/,
  /^TASK_SEAL_KEY$/,
  /_SIGNING_/,
  /^SERVICE_PUBLIC_KEY_/,
  /_GRPC_ADDR$/,
  /^OTEL_EXPORTER_OTLP/,
];
/** Measured (deploy/README.md "The sandbox worker"): the parent, and a child busy at the default
 *  isolate heap (64 MiB; the request covers them) and at the maximum (256 MiB; the limit does). */
const MIB_PARENT = 172;
const MIB_CHILD = { requests: 138, limits: 335 } as const;

const NAME = 'app.kubernetes.io/name';
type Labels = Record<string, string>;
const podSpec = (o: Obj | undefined): Obj => o?.spec?.template?.spec ?? {};
const named = (objects: Obj[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name);
const isPlatformConfig = (name: unknown) => /^platform-config(-[a-z0-9]+)?$/.test(String(name ?? ''));

function mebibytes(quantity: unknown): number {
  const m = /^(\d+(?:\.\d+)?)(Mi|Gi)?$/.exec(String(quantity ?? ''));
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 : m[2] === 'Mi' ? 1 : 1 / 2 ** 20);
}

/** Every variable name the container ends up with: its own, and every key of what envFrom loads. */
function envNames(objects: Obj[], c: Obj): { names: string[]; whole: string[] } {
  const names = (c.env ?? []).map((e: Obj) => String(e.name));
  const whole: string[] = [];
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    whole.push(`${from.configMapRef ? 'ConfigMap' : 'Secret'} ${ref?.name}`);
    const cm = from.configMapRef ? named(objects, 'ConfigMap', ref?.name) : undefined;
    names.push(...Object.keys(cm?.data ?? {}));
  }
  return { names, whole };
}

function checkEnv(objects: Obj[], c: Obj, at: string): string[] {
  const problems: string[] = [];
  const { names, whole } = envNames(objects, c);
  for (const what of whole)
    problems.push(`${at} loads ${what} as a whole; it takes single keys (configMapKeyRef) only`);
  for (const name of names) {
    if (FORBIDDEN_SANDBOX_ENV.some((re) => re.test(name))) problems.push(`${at} is given ${name}`);
    else if (!SANDBOX_ENV.includes(name)) problems.push(`${at} is given ${name}, which it does not read`);
  }
  const env = (name: string): Obj | undefined => (c.env ?? []).find((e: Obj) => e.name === name);
  if (env('PROCESS_ROLE')?.value !== 'sandbox') problems.push(`${at} does not run PROCESS_ROLE=sandbox`);
  const grpcPort = env('GRPC_PORT')?.value;
  if (grpcPort !== undefined && Number(grpcPort) !== SANDBOX_GRPC_PORT)
    problems.push(`${at} GRPC_PORT=${grpcPort}, expected ${SANDBOX_GRPC_PORT}`);
  if (env('POD_NAME')?.valueFrom?.fieldRef?.fieldPath !== 'metadata.name')
    problems.push(`${at} POD_NAME does not come from the downward API (metadata.name)`);
  for (const key of ['KAFKA_BROKERS', 'KAFKA_SASL_MECHANISM', 'KAFKA_SSL', 'NODE_ENV', 'LOG_LEVEL', 'TZ']) {
    const ref = env(key)?.valueFrom?.configMapKeyRef;
    if (!isPlatformConfig(ref?.name) || ref?.key !== key)
      problems.push(`${at} ${key} is not platform-config's (configMapKeyRef)`);
  }
  for (const key of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']) {
    const ref = env(key)?.valueFrom?.secretKeyRef;
    if (ref?.name !== SANDBOX_KAFKA_SECRET || ref?.key !== key)
      problems.push(`${at} ${key} is not its own Kafka user's (Secret ${SANDBOX_KAFKA_SECRET})`);
  }
  return problems;
}

/** The container: the workflows image and command, probes on grpc.health.v1, room for its children. */
function checkContainer(objects: Obj[], c: Obj, at: string): string[] {
  const problems: string[] = [];
  const workflows = podSpec(named(objects, 'Deployment', 'workflows')).containers?.[0];
  if (!String(c.image).includes('agent-platform/workflows') || c.image !== workflows?.image)
    problems.push(`${at} runs ${c.image}, not the workflows image`);
  if (JSON.stringify([c.command, c.args]) !== JSON.stringify([workflows?.command, workflows?.args]))
    problems.push(`${at} does not run the workflows command`);
  const ports = (c.ports ?? []).map((p: Obj) => `${p.name}:${p.containerPort}`).sort();
  if (JSON.stringify(ports) !== JSON.stringify([`grpc:${SANDBOX_GRPC_PORT}`, `metrics:${METRICS_PORT}`]))
    problems.push(`${at} declares ports ${ports}, expected grpc ${SANDBOX_GRPC_PORT} and metrics`);
  for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
    if (c[probe]?.grpc?.port !== SANDBOX_GRPC_PORT)
      problems.push(`${at} ${probe} is not grpc on ${SANDBOX_GRPC_PORT}`);
  const concurrency = Number((c.env ?? []).find((e: Obj) => e.name === 'SANDBOX_CONCURRENCY')?.value ?? 2);
  for (const section of ['requests', 'limits'] as const) {
    const needed = MIB_PARENT + concurrency * MIB_CHILD[section];
    const mib = mebibytes(c.resources?.[section]?.memory);
    if (!(mib >= needed))
      problems.push(
        `${at} memory ${section} ${c.resources?.[section]?.memory} < ${needed}Mi for ${concurrency} children`,
      );
  }
  if (c.securityContext?.readOnlyRootFilesystem !== true)
    problems.push(`${at} has a writable root filesystem`);
  if ((c.volumeMounts ?? []).length > 0) problems.push(`${at} mounts volumes; it writes no file`);
  return problems;
}

/** Who gets in: the monitoring Prometheus on the metrics port; nobody on anything else. */
function checkIngress(objects: Obj[], labels: Labels): string[] {
  const problems: string[] = [];
  const k8s = objects as K8sObject[];
  const podOf = (name: string): Labels =>
    named(objects, 'Deployment', name)?.spec?.template?.metadata?.labels ?? { [NAME]: name };
  if (!ingressAllowed(k8s, MONITORING_PROMETHEUS, labels, METRICS_PORT))
    problems.push(
      `the monitoring Prometheus cannot reach ${SANDBOX_WORKER}:${METRICS_PORT}, expected allowed`,
    );
  if (ingressAllowed(k8s, MONITORING_PROMETHEUS, labels, SANDBOX_GRPC_PORT))
    problems.push(
      `the monitoring Prometheus can reach ${SANDBOX_WORKER}:${SANDBOX_GRPC_PORT}, expected refused`,
    );
  const both = [SANDBOX_GRPC_PORT, METRICS_PORT];
  const others: [string, Peer, number[]][] = [
    ['the gateway', { labels: podOf('gateway') }, both],
    ['workflows', { labels: podOf('workflows') }, both],
    ['another pod of the namespace', { labels: { [NAME]: 'intruder' } }, both],
    [
      'another pod of the monitoring namespace',
      { namespace: { 'kubernetes.io/metadata.name': 'monitoring' }, labels: { [NAME]: 'grafana' } },
      both,
    ],
    // "Anything outside" matches every namespaceSelector rule, the monitoring one included.
    ['outside the namespace', 'outside', [SANDBOX_GRPC_PORT]],
  ];
  for (const [who, peer, ports] of others)
    for (const port of ports)
      if (ingressAllowed(k8s, peer, labels, port))
        problems.push(`${who} can reach ${SANDBOX_WORKER}:${port}, expected refused`);
  return problems;
}

/** Every rule above on a set of objects (a base, or a rendered overlay); every problem found. */
export function checkSandboxWorker(objects: Obj[]): string[] {
  const d = named(objects, 'Deployment', SANDBOX_WORKER);
  if (!d) return [`no Deployment ${SANDBOX_WORKER}`];
  const at = `Deployment ${SANDBOX_WORKER}`;
  const pod = podSpec(d);
  const c = pod.containers?.[0] ?? {};
  const problems = [
    ...(pod.containers?.length === 1 ? [] : [`${at} has ${pod.containers?.length} containers`]),
    ...checkEnv(objects, c, at),
    ...checkContainer(objects, c, at),
  ];
  const sa = named(objects, 'ServiceAccount', SANDBOX_WORKER);
  if (pod.serviceAccountName !== SANDBOX_WORKER || pod.automountServiceAccountToken !== false)
    problems.push(`${at} does not run as its own ServiceAccount without a token`);
  if (!sa || sa.automountServiceAccountToken !== false)
    problems.push(`ServiceAccount ${SANDBOX_WORKER} is missing or mounts a token`);
  if ((pod.volumes ?? []).length > 0) problems.push(`${at} has volumes; it writes no file`);
  const labels: Labels = d.spec?.template?.metadata?.labels ?? {};
  const selects = (selector: Labels | undefined) =>
    !!selector &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([k, v]) => labels[k] === v);
  for (const svc of objects.filter((o) => o.kind === 'Service'))
    if (selects(svc.spec?.selector)) problems.push(`Service ${svc.metadata?.name} selects ${SANDBOX_WORKER}`);
  if (!objects.some((o) => o.kind === 'PodDisruptionBudget' && selects(o.spec?.selector?.matchLabels)))
    problems.push(`${SANDBOX_WORKER} has no PodDisruptionBudget`);
  problems.push(...checkIngress(objects, labels));
  return problems;
}
