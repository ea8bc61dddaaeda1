// Egress NetworkPolicies evaluated as a connection matrix: may a pod (its labels) open a connection
// to an address, to a pod of the namespace, or to a pod of another namespace? Used on the rendered
// production overlay: the internet only for the services that call user-configured URLs and never
// to private, loopback or link-local ranges; each pod only to the gRPC services it calls, its stores
// and DNS.
import { BlockList, isIP } from 'node:net';
import type { K8sObject } from './k8s.js';
import { byKind, DEPLOYMENTS, type Obj } from './k8s-prod.js';
import { ingressAllowed } from './k8s-security.js';
import { GRPC_CALLERS, SERVICES, type Store } from './topology.js';

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
  SERVICES.find((s) => s.name === serviceOf(deployment))?.stores ?? [];

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
  const check = (who: string, from: Labels, to: Destination, expected: boolean, what: string) => {
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
