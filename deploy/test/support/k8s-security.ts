// The Kubernetes security checks, run on a raw base or on `kubectl kustomize` output: who reads
// which Secret (per-audience Secrets, the trust keys), no credential in plain sight, TZ from the one
// ConfigMap key, and the NetworkPolicies evaluated as a connection matrix. Returns every problem.
import type { Container, K8sObject } from './k8s.js';
import { SECRET_ENV } from './k8s.js';
import {
  GRPC_CALLERS,
  METRICS_PORT,
  SANDBOX_WORKER,
  SECRET_AUDIENCE,
  SERVICES,
  type ServiceSpec,
} from './topology.js';

export interface SecretExample {
  name: string;
  keys: Set<string>;
  audience: string[];
}

type Labels = Record<string, string>;
interface PeerRule {
  podSelector?: { matchLabels?: Labels; matchExpressions?: unknown };
  namespaceSelector?: { matchLabels?: Labels; matchExpressions?: unknown };
  ipBlock?: unknown;
}
interface NetworkPolicySpec {
  podSelector?: { matchLabels?: Labels; matchExpressions?: unknown };
  policyTypes?: string[];
  ingress?: { from?: PeerRule[]; ports?: { port?: number | string; protocol?: string }[] }[];
}

const NAME = 'app.kubernetes.io/name';
const deploymentOf = (objects: K8sObject[], name: string) =>
  objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name);
function containerOf(deployment: K8sObject | undefined): Container | undefined {
  const containers = deployment?.spec?.template?.spec?.containers ?? [];
  return containers.find((c) => c.name === deployment?.metadata?.name) ?? containers[0];
}

/** A PEM key or a URL with user:password in it. */
export const looksLikeCredential = (value: string): boolean =>
  /-----BEGIN [A-Z ]*KEY-----/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]+@/i.test(value);
const CREDENTIAL_NAME = /PASSWORD|SECRET|_KEY$/;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Secrets by audience, no plaintext credentials, TZ from the shared ConfigMap. */
export function checkSecrets(objects: K8sObject[], label: string, examples: SecretExample[]): string[] {
  const problems: string[] = [];
  const readers = new Map<string, Set<string>>(examples.map((e) => [e.name, new Set<string>()]));
  const checkKey = (where: string, spec: ServiceSpec, key: string, how: string) => {
    const audience = SECRET_AUDIENCE[key];
    if (audience && !audience.includes(spec.name))
      problems.push(`${where} ${how} ${key}, which only ${audience.join(', ')} may hold`);
  };
  for (const o of objects.filter((x) => x.kind === 'Secret'))
    problems.push(`${label}: Secret ${o.metadata?.name} is in the manifests; Secrets are created apart`);

  for (const spec of SERVICES) {
    const where = `${label}: ${spec.name}`;
    const container = containerOf(deploymentOf(objects, spec.name));
    if (!container) continue;
    for (const e of container.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) {
        readers.get(ref.name ?? '')?.add(spec.name);
        checkKey(where, spec, ref.key ?? '', `reads Secret key`);
      }
      checkKey(where, spec, e.name, 'is given');
      if (e.value !== undefined && (SECRET_ENV.includes(e.name) || CREDENTIAL_NAME.test(e.name)))
        problems.push(`${where} ${e.name} is written into the Deployment; take it from a Secret`);
      if (e.value !== undefined && looksLikeCredential(e.value))
        problems.push(`${where} ${e.name} holds a credential in plain text`);
      if (e.name === 'TZ') problems.push(`${where} sets TZ itself; it comes from platform-config`);
    }
    for (const from of container.envFrom ?? []) {
      const name = from.secretRef?.name;
      if (!name) continue;
      readers.get(name)?.add(spec.name);
      for (const key of examples.find((x) => x.name === name)?.keys ?? [])
        checkKey(where, spec, key, `mounts Secret ${name} with`);
    }
    const configMaps = (container.envFrom ?? [])
      .map((f) => objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === f.configMapRef?.name))
      .filter((cm) => cm?.data?.TZ !== undefined);
    const zone = configMaps[0]?.data?.TZ;
    if (configMaps.length !== 1 || !configMaps[0]?.metadata?.name?.startsWith('platform-config'))
      problems.push(`${where} does not take TZ from the platform-config ConfigMap`);
    else if (!isTimeZone(zone ?? '')) problems.push(`${where} TZ=${zone} is not a time zone`);
  }

  // The sandbox worker reads its own Kafka user's Secret and none of the audiences' keys.
  const sandbox = containerOf(deploymentOf(objects, SANDBOX_WORKER));
  for (const e of sandbox?.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) readers.get(ref.name ?? '')?.add(SANDBOX_WORKER);
    for (const key of [e.name, ref?.key ?? ''])
      if (SECRET_AUDIENCE[key])
        problems.push(
          `${label}: ${SANDBOX_WORKER} is given ${key}, which only ${SECRET_AUDIENCE[key]!.join(', ')} may hold`,
        );
  }
  for (const from of sandbox?.envFrom ?? [])
    if (from.secretRef?.name) readers.get(from.secretRef.name)?.add(SANDBOX_WORKER);

  for (const example of examples) {
    const actual = [...(readers.get(example.name) ?? [])].sort();
    const declared = [...example.audience].sort();
    if (actual.join() !== declared.join())
      problems.push(`${label}: Secret ${example.name} is read by [${actual}], its audience is [${declared}]`);
  }
  for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) {
    for (const [key, value] of Object.entries(cm.data ?? {})) {
      if (SECRET_ENV.includes(key) || CREDENTIAL_NAME.test(key) || looksLikeCredential(value))
        problems.push(`${label}: ConfigMap ${cm.metadata?.name} holds credential ${key}`);
    }
  }
  return problems;
}

const matches = (selector: { matchLabels?: Labels } | undefined, labels: Labels) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/** A source of traffic: a pod of this namespace (its labels), a pod of another namespace (that
 *  namespace's labels and its own), or anything outside the namespace. */
export type Peer = { labels: Labels } | { namespace: Labels; labels: Labels } | 'outside';

function peerMatches(peer: PeerRule, from: Peer): boolean {
  if (from === 'outside') return peer.namespaceSelector !== undefined || peer.ipBlock !== undefined;
  if ('namespace' in from)
    return (
      peer.namespaceSelector !== undefined &&
      matches(peer.namespaceSelector, from.namespace) &&
      matches(peer.podSelector, from.labels)
    );
  return peer.namespaceSelector === undefined && peer.ipBlock === undefined
    ? matches(peer.podSelector, from.labels)
    : peer.namespaceSelector !== undefined && Object.keys(peer.namespaceSelector).length === 0;
}

/** Does the namespace's NetworkPolicy set let `from` open a TCP connection to `port` of `to`? */
export function ingressAllowed(objects: K8sObject[], from: Peer, to: Labels, port: number): boolean {
  const policies = objects
    .filter((o) => o.kind === 'NetworkPolicy')
    .map((o) => o.spec as unknown as NetworkPolicySpec)
    .filter((p) => (p.policyTypes ?? ['Ingress']).includes('Ingress') && matches(p.podSelector, to));
  if (policies.length === 0) return true;
  return policies.some((p) =>
    (p.ingress ?? []).some((rule) => {
      const portOk =
        !rule.ports?.length ||
        rule.ports.some((r) => (r.protocol ?? 'TCP') === 'TCP' && (r.port === undefined || r.port === port));
      const fromOk = !rule.from?.length || rule.from.some((peer) => peerMatches(peer, from));
      return portOk && fromOk;
    }),
  );
}

/** Every Deployment isolated; the gateway open on its port; each service reachable only by its callers. */
export function checkNetworkPolicies(objects: K8sObject[], label: string): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  for (const p of policies) {
    const spec = p.spec as unknown as NetworkPolicySpec;
    if (JSON.stringify(spec).includes('matchExpressions'))
      problems.push(
        `${label}: NetworkPolicy ${p.metadata?.name} uses matchExpressions, which this check cannot read`,
      );
  }
  const defaultDeny = policies.some((p) => {
    const spec = p.spec as unknown as NetworkPolicySpec;
    return (
      Object.keys(spec.podSelector?.matchLabels ?? {}).length === 0 &&
      spec.podSelector?.matchExpressions === undefined &&
      (spec.policyTypes ?? []).includes('Ingress') &&
      (spec.ingress ?? []).length === 0
    );
  });
  if (!defaultDeny) problems.push(`${label}: no default-deny ingress NetworkPolicy for the namespace`);

  const podLabels = (name: string): Labels =>
    deploymentOf(objects, name)?.spec?.template?.metadata?.labels ?? { [NAME]: name };
  const peers: [string, Peer][] = [
    ...SERVICES.map((s): [string, Peer] => [s.name, { labels: podLabels(s.name) }]),
    // Calls nobody: no gRPC port opens to the pod that runs user code.
    [SANDBOX_WORKER, { labels: podLabels(SANDBOX_WORKER) }],
    ['another pod of the namespace', { labels: { [NAME]: 'intruder' } }],
    ['outside the namespace', 'outside'],
  ];
  problems.push(...checkMetricsScrape(objects, label, podLabels));
  for (const target of SERVICES) {
    const callers = target.protocol === 'http' ? peers.map(([n]) => n) : (GRPC_CALLERS[target.name] ?? []);
    for (const [name, peer] of peers) {
      const allowed = ingressAllowed(objects, peer, podLabels(target.name), target.port);
      const expected = callers.includes(name);
      if (allowed !== expected)
        problems.push(
          `${label}: ${name} ${allowed ? 'can' : 'cannot'} reach ${target.name}:${target.port}, expected ${expected ? 'allowed' : 'refused'}`,
        );
    }
  }
  return problems;
}

/** The Prometheus of the monitoring namespace, as the prometheus-operator labels its pods. */
export const MONITORING_PROMETHEUS: Peer = {
  namespace: { 'kubernetes.io/metadata.name': 'monitoring' },
  labels: { [NAME]: 'prometheus' },
};

/** The monitoring namespace's Prometheus reaches every service's metrics port and nothing new:
 *  no other pod (here, in another namespace, or another pod of the monitoring namespace) gets
 *  to the metrics port, and the Prometheus gets to no service port but the gateway's public one. */
function checkMetricsScrape(
  objects: K8sObject[],
  label: string,
  podLabels: (name: string) => Labels,
): string[] {
  const problems: string[] = [];
  const others: [string, Peer][] = [
    ['another pod of the namespace', { labels: { [NAME]: 'intruder' } }],
    ['the gateway', { labels: podLabels('gateway') }],
    [
      'a Prometheus of another namespace',
      { namespace: { 'kubernetes.io/metadata.name': 'tenant' }, labels: { [NAME]: 'prometheus' } },
    ],
    [
      'another pod of the monitoring namespace',
      { namespace: { 'kubernetes.io/metadata.name': 'monitoring' }, labels: { [NAME]: 'grafana' } },
    ],
  ];
  for (const target of SERVICES) {
    const to = podLabels(target.name);
    if (!ingressAllowed(objects, MONITORING_PROMETHEUS, to, METRICS_PORT))
      problems.push(
        `${label}: the monitoring Prometheus cannot reach ${target.name}:${METRICS_PORT}, expected allowed`,
      );
    for (const [name, peer] of others) {
      if (ingressAllowed(objects, peer, to, METRICS_PORT))
        problems.push(`${label}: ${name} can reach ${target.name}:${METRICS_PORT}, expected refused`);
    }
    if (target.protocol === 'grpc' && ingressAllowed(objects, MONITORING_PROMETHEUS, to, target.port))
      problems.push(
        `${label}: the monitoring Prometheus can reach ${target.name}:${target.port}, expected refused`,
      );
  }
  return problems;
}
