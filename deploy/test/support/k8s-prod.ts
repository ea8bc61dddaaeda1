// The production overlay's rules (issue 23), run on `kubectl kustomize deploy/k8s/overlays/prod`:
// resources and probes, images by digest, Pod Security `restricted`, ServiceAccounts, topology
// spread, the API/worker split with KEDA, the Jobs before the rollout, graceful shutdown, the
// HTTPRoute. Egress is checked apart (k8s-egress.ts). Each check returns every problem it finds.
import { SANDBOX_WORKER, SERVICES } from './topology.js';

export type Obj = Record<string, any>;

/** The services split into an API and a `<service>-worker` Deployment (PROCESS_ROLE). */
export const SPLIT_SERVICES = ['workflows', 'notifications', 'observability'] as const;
export const WORKERS = SPLIT_SERVICES.map((s) => `${s}-worker`);
/** Every Deployment of the overlay: the services, their workers, and the sandbox worker (issue 24). */
export const DEPLOYMENTS = [...SERVICES.map((s) => s.name), ...WORKERS, SANDBOX_WORKER];
/** The Jobs that run before a rollout: one migrate per service with a store, and the topics. */
export const MIGRATING_SERVICES = [
  'identity',
  'apikeys',
  'models',
  'workflows',
  'observability',
  'notifications',
];

/** The consumer group and topic(s) whose lag scales each worker (packages/kafka, the services' configs). */
export const WORKER_LAG: Record<string, { group: string; topics: string[] }> = {
  'workflows-worker': { group: 'workers.workflow', topics: ['queue.workflow'] },
  'notifications-worker': { group: 'workers.default', topics: ['queue.default'] },
  'observability-worker': {
    group: 'observability.telemetry',
    topics: ['platform.agent-rounds', 'platform.workflow-runs'],
  },
  [SANDBOX_WORKER]: { group: 'workers.sandbox', topics: ['queue.sandbox'] },
};

/** Least grace per Deployment: the preStop sleep plus the drain of what it does (deploy/README.md). */
export const MIN_GRACE_SECONDS: Record<string, number> = {
  gateway: 25,
  'workflows-worker': 65,
  'notifications-worker': 15,
  'observability-worker': 15,
  // 5 s preStop + a task in hand (30 s at most).
  [SANDBOX_WORKER]: 35,
  ...Object.fromEntries(SERVICES.filter((s) => s.name !== 'gateway').map((s) => [s.name, 15] as const)),
};

export const byKind = (objects: Obj[], kind: string): Obj[] => objects.filter((o) => o.kind === kind);
export const named = (objects: Obj[], kind: string, name: string): Obj | undefined =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name);
const workloads = (objects: Obj[]) => [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')];
const podSpec = (o: Obj): Obj => o.spec?.template?.spec ?? {};
const containersOf = (o: Obj): Obj[] => [
  ...(podSpec(o).initContainers ?? []),
  ...(podSpec(o).containers ?? []),
];
const where = (o: Obj) => `${o.kind} ${o.metadata?.name}`;
const envValue = (c: Obj, name: string): string | undefined =>
  (c.env ?? []).find((e: Obj) => e.name === name)?.value;

/** The effective value of a variable: the container's own (a value or a ConfigMap key), else the
 *  ConfigMaps it loads. */
export function effectiveEnv(objects: Obj[], c: Obj, name: string): string | undefined {
  const own = envValue(c, name);
  if (own !== undefined) return own;
  const ref = (c.env ?? []).find((e: Obj) => e.name === name)?.valueFrom?.configMapKeyRef;
  if (ref) return named(objects, 'ConfigMap', ref.name ?? '')?.data?.[ref.key ?? ''];
  for (const from of c.envFrom ?? []) {
    const cm = named(objects, 'ConfigMap', from.configMapRef?.name ?? '');
    if (cm?.data?.[name] !== undefined) return cm.data[name];
  }
  return undefined;
}

/** Requests and limits (cpu, memory) on every container; probes on every Deployment's. */
export function checkResourcesAndProbes(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const o of workloads(objects)) {
    for (const c of containersOf(o)) {
      for (const section of ['requests', 'limits'])
        for (const resource of ['cpu', 'memory'])
          if (c.resources?.[section]?.[resource] === undefined)
            problems.push(`${where(o)} ${c.name} has no ${resource} ${section}`);
      if (o.kind !== 'Deployment') continue;
      for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe'])
        if (!c[probe]) problems.push(`${where(o)} ${c.name} has no ${probe}`);
    }
  }
  return problems;
}

const DIGEST = /^[a-z0-9.-]+(:\d+)?\/[a-z0-9/_.-]+@sha256:[0-9a-f]{64}$/;

/** Every image from a registry and pinned by digest; no `:latest`, no tag alone. */
export function checkImages(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const o of workloads(objects))
    for (const c of containersOf(o)) {
      const image = String(c.image ?? '');
      if (!DIGEST.test(image))
        problems.push(`${where(o)} ${c.name} image ${image} is not registry/name@sha256:<digest>`);
      if (/:latest(@|$)/.test(image)) problems.push(`${where(o)} ${c.name} image ${image} uses :latest`);
    }
  return problems;
}

/** Pod Security `restricted` (and our read-only root), checked per pod and container. */
export function checkRestricted(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const o of workloads(objects)) {
    const pod = podSpec(o);
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${where(o)} uses a host namespace`);
    if ((pod.volumes ?? []).some((v: Obj) => v.hostPath)) problems.push(`${where(o)} mounts a hostPath`);
    for (const c of containersOf(o)) {
      const sc = c.securityContext ?? {};
      const at = `${where(o)} ${c.name}`;
      if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true)
        problems.push(`${at} may run as root`);
      if ((sc.runAsUser ?? pod.securityContext?.runAsUser) === 0) problems.push(`${at} runs as uid 0`);
      const seccomp = sc.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
      if (!['RuntimeDefault', 'Localhost'].includes(seccomp)) problems.push(`${at} has no seccomp profile`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${at} allows privilege escalation`);
      if (sc.privileged) problems.push(`${at} is privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL'))
        problems.push(`${at} does not drop ALL capabilities`);
      if ((sc.capabilities?.add ?? []).some((cap: string) => cap !== 'NET_BIND_SERVICE'))
        problems.push(`${at} adds capabilities`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${at} has a writable root filesystem`);
    }
  }
  const namespaces = byKind(objects, 'Namespace');
  if (namespaces.length !== 1) problems.push(`expected one Namespace, found ${namespaces.length}`);
  for (const ns of namespaces)
    for (const mode of ['enforce', 'audit', 'warn']) {
      const labels = ns.metadata?.labels ?? {};
      if (labels[`pod-security.kubernetes.io/${mode}`] !== 'restricted')
        problems.push(`Namespace ${ns.metadata?.name} is not ${mode}: restricted`);
      if (!/^v1\.\d+$/.test(labels[`pod-security.kubernetes.io/${mode}-version`] ?? ''))
        problems.push(`Namespace ${ns.metadata?.name} pins no ${mode}-version`);
    }
  return problems;
}

/** One ServiceAccount per Deployment (named after it), no token mounted. */
export function checkServiceAccounts(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const name of DEPLOYMENTS) {
    const d = named(objects, 'Deployment', name);
    if (!d) continue;
    const account = podSpec(d).serviceAccountName;
    if (account !== name) problems.push(`Deployment ${name} runs as ServiceAccount ${account}, not its own`);
    const sa = named(objects, 'ServiceAccount', name);
    if (!sa) problems.push(`no ServiceAccount ${name}`);
    if (sa && sa.automountServiceAccountToken !== false)
      problems.push(`ServiceAccount ${name} mounts a token`);
    if (podSpec(d).automountServiceAccountToken !== false) problems.push(`Deployment ${name} mounts a token`);
  }
  for (const job of byKind(objects, 'Job'))
    if (!named(objects, 'ServiceAccount', podSpec(job).serviceAccountName ?? ''))
      problems.push(`Job ${job.metadata?.name} runs as no ServiceAccount of the overlay`);
  return problems;
}

/** Strict spread over zones and a spread over nodes, each on the Deployment's own pods. */
export function checkTopologySpread(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const d of byKind(objects, 'Deployment')) {
    const own = d.spec?.selector?.matchLabels ?? {};
    const constraints: Obj[] = podSpec(d).topologySpreadConstraints ?? [];
    const on = (key: string) => constraints.find((c) => c.topologyKey === key);
    const zone = on('topology.kubernetes.io/zone');
    const host = on('kubernetes.io/hostname');
    if (zone?.whenUnsatisfiable !== 'DoNotSchedule')
      problems.push(`${where(d)} does not spread strictly over zones`);
    if (!host) problems.push(`${where(d)} does not spread over nodes`);
    for (const c of [zone, host].filter(Boolean))
      if (JSON.stringify(c!.labelSelector?.matchLabels) !== JSON.stringify(own))
        problems.push(`${where(d)} spreads on other pods than its own (${c!.topologyKey})`);
  }
  return problems;
}

/** preStop before SIGTERM, and a grace period that covers it and the drain. */
export function checkGraceful(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const [name, least] of Object.entries(MIN_GRACE_SECONDS)) {
    const d = named(objects, 'Deployment', name);
    if (!d) {
      problems.push(`no Deployment ${name}`);
      continue;
    }
    const preStop = podSpec(d).containers?.[0]?.lifecycle?.preStop;
    const sleep = preStop?.sleep?.seconds ?? Number(preStop?.exec?.command?.[1] ?? NaN);
    if (!(sleep > 0)) problems.push(`Deployment ${name} has no preStop delay`);
    const grace = podSpec(d).terminationGracePeriodSeconds ?? 30;
    if (grace < least || !(grace > sleep))
      problems.push(`Deployment ${name} grace ${grace} s is below its preStop + drain (${least} s)`);
  }
  return problems;
}

/** The HTTPRoute leads to a port of the gateway Service; no Ingress left. */
export function checkRoute(objects: Obj[]): string[] {
  const problems: string[] = [];
  const routes = byKind(objects, 'HTTPRoute');
  if (routes.length === 0) problems.push('no HTTPRoute');
  if (byKind(objects, 'Ingress').length > 0) problems.push('an Ingress is left beside the HTTPRoute');
  const ports = (named(objects, 'Service', 'gateway')?.spec?.ports ?? []).map((p: Obj) => p.port);
  for (const route of routes) {
    if (!route.spec?.parentRefs?.length)
      problems.push(`HTTPRoute ${route.metadata?.name} attaches to no Gateway`);
    for (const ref of (route.spec?.rules ?? []).flatMap((r: Obj) => r.backendRefs ?? []))
      if (ref.name !== 'gateway' || !ports.includes(ref.port))
        problems.push(`HTTPRoute backend ${ref.name}:${ref.port} is not a gateway Service port`);
  }
  return problems;
}
