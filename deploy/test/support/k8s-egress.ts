// Egress NetworkPolicies evaluated as a connection matrix: may a pod (its labels) open a connection
// to an address, to a pod of the namespace, or to a pod of another namespace? Used on the rendered
// production overlay: the internet only for the services that call user-configured URLs and never
// to private, loopback or link-local ranges; each pod only to the gRPC services it calls, its stores,
// DNS and the OTLP collector; the sandbox worker (user JavaScript) only to Kafka and DNS.
import { BlockList, isIP } from 'node:net';
import type { K8sObject } from './k8s.js';
import { byKind, DEPLOYMENTS, named, type Obj } from './k8s-prod.js';
import { ingressAllowed } from './k8s-security.js';
import { GRPC_CALLERS, METRICS_PORT, SANDBOX_WORKER, SERVICES, type Store } from './topology.js';

type Labels = Record<string, string>;
export type Destination =
  | { ip: string; port: number; protocol?: string }
  | { pod: Labels; namespace?: Labels; port: number; protocol?: string };

const matches = (selector: Obj | undefined, labels: Labels) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

function inBlock(block: Obj, ip: string): boolean {
  const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
  const list = (cidrs: string[]) => {
    const l = new BlockList();
    for (const c of cidrs) {
      const [net, bits] = c.split('/');
      l.addSubnet(net!, Number(bits), family(net!));
    }
    return l;
  };
  if (family(block.cidr.split('/')[0]) !== family(ip)) return false;
  return list([block.cidr]).check(ip, family(ip)) && !list(block.except ?? []).check(ip, family(ip));
}

function peerMatches(peer: Obj, to: Destination): boolean {
  if ('ip' in to) return !!peer.ipBlock && inBlock(peer.ipBlock, to.ip);
  if (peer.ipBlock) return false;
  if (!peer.namespaceSelector) return !to.namespace && matches(peer.podSelector, to.pod);
  return !!to.namespace && matches(peer.namespaceSelector, to.namespace) && matches(peer.podSelector, to.pod);
}

const portMatches = (rule: Obj, to: Destination) =>
  !rule.ports?.length ||
  rule.ports.some(
    (p: Obj) =>
      (p.protocol ?? 'TCP') === (to.protocol ?? 'TCP') &&
      (p.port === undefined || (to.port >= p.port && to.port <= (p.endPort ?? p.port))),
  );

/** Does the namespace's policy set let a pod with `from` labels open this connection? */
export function egressAllowed(objects: Obj[], from: Labels, to: Destination): boolean {
  const policies = byKind(objects, 'NetworkPolicy')
    .map((p) => p.spec ?? {})
    .filter((s) => (s.policyTypes ?? []).includes('Egress') && matches(s.podSelector, from));
  if (policies.length === 0) return true;
  return policies.some((s) =>
    (s.egress ?? []).some(
      (rule: Obj) =>
        portMatches(rule, to) && (!rule.to?.length || rule.to.some((p: Obj) => peerMatches(p, to))),
    ),
  );
}

/** The Deployments that call user-configured URLs (model providers, HTTP nodes, deliveries). */
export const INTERNET_CLIENTS = ['models', 'workflows', 'workflows-worker', 'notifications-worker'];
export const PUBLIC_ADDRESSES = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888'];
/** Cluster, private, CGNAT, loopback, link-local (metadata included), IPv6 ULA and link-local. */
export const PRIVATE_ADDRESSES = [
  '10.0.0.1',
  '10.96.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '100.64.0.1',
  '127.0.0.1',
  '169.254.169.254',
  '169.254.0.1',
  '0.0.0.1',
  'fd00:ec2::254',
  'fc00::1',
  'fe80::1',
  '::1',
];

const serviceOf = (deployment: string) => deployment.replace(/-worker$/, '');
/** Whom a Deployment may call over gRPC: a worker calls what its service calls, but not itself. */
export function grpcCallees(deployment: string): string[] {
  const service = serviceOf(deployment);
  const callees = Object.keys(GRPC_CALLERS).filter((t) => GRPC_CALLERS[t]!.includes(service));
  if (deployment === 'observability-worker') return []; // the fact consumer writes Postgres only
  if (deployment === 'notifications-worker') return ['identity'];
  return callees;
}
export const storesOf = (deployment: string): Store[] =>
  deployment === SANDBOX_WORKER
    ? ['kafka']
    : (SERVICES.find((s) => s.name === serviceOf(deployment))?.stores ?? []);

const podLabels = (objects: Obj[], kind: string, name: string): Labels =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name)?.spec?.template?.metadata?.labels ?? {};

/** The first address of a store's policy (its placeholder or real endpoint) and its first port. */
function storeDestination(objects: Obj[], store: Store): Destination | undefined {
  const policy = byKind(objects, 'NetworkPolicy').find((p) => p.metadata?.name === `egress-${store}`);
  const rule = policy?.spec?.egress?.[0];
  const peer = rule?.to?.[0];
  const port = rule?.ports?.[0]?.port;
  if (!peer || !port) return undefined;
  if (peer.ipBlock) return { ip: peer.ipBlock.cidr.split('/')[0], port };
  return { pod: peer.podSelector?.matchLabels ?? {}, namespace: peer.namespaceSelector?.matchLabels, port };
}

const KUBE_DNS: Destination = {
  namespace: { 'kubernetes.io/metadata.name': 'kube-system' },
  pod: { 'k8s-app': 'kube-dns' },
  port: 53,
  protocol: 'UDP',
};
/** An OTLP/HTTP collector of the monitoring namespace (egress-telemetry). */
const OTLP_COLLECTOR: Destination = {
  namespace: { 'kubernetes.io/metadata.name': 'monitoring' },
  pod: { 'app.kubernetes.io/name': 'otel-collector' },
  port: 4318,
};
/** Whether a Deployment exports traces: every one but the sandbox worker (its metrics are scraped). */
const exportsTraces = (deployment: string) => deployment !== SANDBOX_WORKER;

type Check = (who: string, from: Labels, to: Destination, expected: boolean, what: string) => void;

/** The whole egress matrix of the rendered overlay; every mismatch is a problem. */
export function checkEgress(objects: Obj[]): string[] {
  const problems: string[] = [];
  const deny = byKind(objects, 'NetworkPolicy').some(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      (p.spec?.policyTypes ?? []).includes('Egress') &&
      !(p.spec?.egress ?? []).length,
  );
  if (!deny) problems.push('no default-deny egress NetworkPolicy');
  const check: Check = (who, from, to, expected, what) => {
    const allowed = egressAllowed(objects, from, to);
    if (allowed !== expected)
      problems.push(
        `${who} ${allowed ? 'can' : 'cannot'} reach ${what}, expected ${expected ? 'allowed' : 'refused'}`,
      );
  };
  for (const name of DEPLOYMENTS) {
    const from = podLabels(objects, 'Deployment', name);
    for (const ip of PUBLIC_ADDRESSES)
      check(name, from, { ip, port: 443 }, INTERNET_CLIENTS.includes(name), ip);
    for (const ip of PRIVATE_ADDRESSES) check(name, from, { ip, port: 443 }, false, ip);
    check(name, from, { ip: '169.254.169.254', port: 80 }, false, 'the metadata address on 80');
    check(name, from, KUBE_DNS, true, 'DNS');
    check(name, from, OTLP_COLLECTOR, exportsTraces(name), 'the OTLP collector');
    for (const target of SERVICES.filter((s) => s.protocol === 'grpc')) {
      const to = { pod: podLabels(objects, 'Deployment', target.name), port: target.port };
      const expected = grpcCallees(name).includes(target.name);
      check(name, from, to, expected, `${target.name}:${target.port}`);
      // The callee's ingress policy must let the caller in too (the workers are extra callers).
      if (expected && !ingressAllowed(objects as K8sObject[], { labels: from }, to.pod, target.port))
        problems.push(`${target.name}'s ingress policy refuses ${name} on ${target.port}`);
    }
    for (const store of ['postgres', 'redis', 'kafka', 'mongo'] as Store[]) {
      const to = storeDestination(objects, store);
      if (!to) problems.push(`no egress-${store} policy with a destination`);
      // A store on a public address (the 192.0.2.0/24 placeholders) is on the internet as well.
      else
        check(
          name,
          from,
          to,
          storesOf(name).includes(store) || (INTERNET_CLIENTS.includes(name) && 'ip' in to),
          store,
        );
    }
  }
  for (const job of byKind(objects, 'Job')) {
    const name = String(job.metadata?.name);
    const from = podLabels(objects, 'Job', name);
    const service = name.replace(/-migrate$/, '');
    const wanted: Store[] =
      name === 'kafka-topics' ? ['kafka'] : storesOf(service).filter((s) => s !== 'redis' && s !== 'kafka');
    check(name, from, KUBE_DNS, true, 'DNS');
    check(name, from, { ip: '8.8.8.8', port: 443 }, false, 'the internet');
    for (const store of ['postgres', 'redis', 'kafka', 'mongo'] as Store[]) {
      const to = storeDestination(objects, store);
      if (to) check(name, from, to, wanted.includes(store), store);
    }
  }
  return problems;
}

/**
 * The sandbox worker runs user JavaScript: it reaches Kafka (its tasks and results) and DNS, and
 * nothing else at all. Named here one by one, on more ports than the matrix above tries: every
 * store, the OTLP collector, every service's own and metrics port, the internet and the metadata
 * address on 443, 80 and the Kafka ports (a leftover "Kafka ports to anywhere" rule bites).
 */
export function checkSandboxEgress(objects: Obj[]): string[] {
  const problems: string[] = [];
  const from = podLabels(objects, 'Deployment', SANDBOX_WORKER);
  if (!named(objects, 'Deployment', SANDBOX_WORKER)) return [`no Deployment ${SANDBOX_WORKER}`];
  const check: Check = (who, labels, to, expected, what) => {
    if (egressAllowed(objects, labels, to) !== expected)
      problems.push(
        `${who} ${expected ? 'cannot' : 'can'} reach ${what}, expected ${expected ? 'allowed' : 'refused'}`,
      );
  };
  check(SANDBOX_WORKER, from, KUBE_DNS, true, 'DNS');
  check(SANDBOX_WORKER, from, { ...KUBE_DNS, protocol: 'TCP' }, true, 'DNS over TCP');
  for (const store of ['postgres', 'redis', 'kafka', 'mongo'] as Store[]) {
    const to = storeDestination(objects, store);
    if (!to) problems.push(`no egress-${store} policy with a destination`);
    else check(SANDBOX_WORKER, from, to, store === 'kafka', store);
  }
  check(SANDBOX_WORKER, from, OTLP_COLLECTOR, false, 'the OTLP collector');
  for (const target of SERVICES) {
    const pod = podLabels(objects, 'Deployment', target.name);
    check(SANDBOX_WORKER, from, { pod, port: target.port }, false, `${target.name}:${target.port}`);
    check(SANDBOX_WORKER, from, { pod, port: METRICS_PORT }, false, `${target.name}:${METRICS_PORT}`);
  }
  for (const ip of [...PUBLIC_ADDRESSES, ...PRIVATE_ADDRESSES])
    for (const port of [443, 80, 9092]) check(SANDBOX_WORKER, from, { ip, port }, false, `${ip}:${port}`);
  return problems;
}
