// The Kubernetes topology check, run on a raw base or on `kubectl kustomize` output: a Deployment,
// Service and HPA per service, probes, resources, security, environment, Service selectors and
// ports, and the Ingress to the gateway. Returns every problem it finds.
import { GRPC_SERVICES, METRICS_PORT, SERVICES, grpcAddrVar, requiredEnv } from './topology.js';

/** Variables that are credentials (or, for the public key, pinned by a deployer): Secrets only. */
export const SECRET_ENV = [
  'SECRET_KEY',
  'PRINCIPAL_SIGNING_PRIVATE_KEY',
  'PRINCIPAL_SIGNING_PUBLIC_KEY',
  'SERVICE_SIGNING_PRIVATE_KEY',
  ...[
    'GATEWAY',
    'APIKEYS',
    'NOTIFICATIONS',
    'MODELS',
    'WORKFLOWS',
    'OBSERVABILITY',
    'OPERATOR',
    'AGENT_RUNTIME',
  ].map((caller) => `SERVICE_PUBLIC_KEY_${caller}`),
  'DATABASE_URL',
  'MONGO_URL',
  'REDIS_URL',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
];

interface Probe {
  grpc?: { port?: number | string; service?: string };
  httpGet?: { path?: string; port?: number | string };
  tcpSocket?: { port?: number | string };
  exec?: unknown;
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string };
    configMapKeyRef?: { name?: string; key?: string };
  };
}
export interface Container {
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
export interface K8sObject {
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
export function checkK8s(objects: K8sObject[], label: string, secrets: Map<string, Set<string>>): string[] {
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
    if (!container.ports?.some((p) => p.name === 'metrics' && p.containerPort === METRICS_PORT)) {
      problems.push(`${where} container does not declare the metrics port ${METRICS_PORT}`);
    }

    // Probes: HTTP health for the gateway, native gRPC health for the services, on the service port.
    for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe'] as const) {
      const probe = container[kind];
      if (!probe) {
        if (kind !== 'startupProbe') problems.push(`${where} has no ${kind}`);
        continue;
      }
      if (spec.protocol === 'http') {
        // Readiness has its own route (503 from the first moment of SIGTERM); startup and liveness
        // use the spec's health check, which stays 200 through the drain.
        const path = kind === 'readinessProbe' ? '/api/v1/health/ready' : '/api/v1/health';
        if (probe.httpGet?.path !== path) problems.push(`${where} ${kind} is not httpGet ${path}`);
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

    // Environment: every variable is set, by value, ConfigMap or one of the example Secrets.
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
        const keys = secrets.get(secretRef.name ?? '');
        if (!keys) {
          problems.push(`${where} ${e.name} reads Secret ${secretRef.name}, not one of secret.example.yaml`);
        } else if (!keys.has(secretRef.key ?? '')) {
          problems.push(
            `${where} ${e.name} reads key ${secretRef.key} that Secret ${secretRef.name} in secret.example.yaml does not have`,
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
    for (const key of SECRET_ENV) {
      if (
        values.has(key) &&
        !(container.env ?? []).some((e) => e.name === key && e.valueFrom?.secretKeyRef)
      ) {
        problems.push(`${where} ${key} must come from a Secret`);
      }
    }
    // Behind the Ingress (or a Gateway), req.ip must be the address the proxy saw, not the proxy
    // pod's: one trusted hop, or the proxies' address ranges (the production overlay).
    if (spec.name === 'gateway' && !isTrustedProxySetting(values.get('TRUST_PROXY'))) {
      problems.push(
        `${where} TRUST_PROXY=${values.get('TRUST_PROXY')}, expected 1 (the Ingress hop) or the proxies' CIDRs`,
      );
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
      if (!ports.some((p) => p.name === 'metrics'))
        problems.push(`${where} Service has no metrics port (the ServiceMonitor scrapes it)`);
      for (const p of ports) {
        // `metrics` leads to GET /metrics; every other port to the service's own.
        const wanted = p.name === 'metrics' ? METRICS_PORT : spec.port;
        const target = p.targetPort ?? p.port;
        const resolved =
          typeof target === 'number'
            ? target
            : container.ports?.find((cp) => cp.name === target)?.containerPort;
        if (resolved !== wanted) {
          problems.push(`${where} Service port ${p.port} targets ${target}, not containerPort ${wanted}`);
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

  // The gateway is reached from outside through an Ingress or a Gateway API HTTPRoute on its Service.
  const gatewayService = find('Service', 'gateway')[0];
  const backends = [...ingressBackends(objects), ...httpRouteBackends(objects)];
  const toGateway = backends.filter((b) => b?.name === 'gateway');
  if (toGateway.length === 0)
    problems.push(`${label}: no Ingress or HTTPRoute routes to the gateway Service`);
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
    problems.push(`${label}: an Ingress or HTTPRoute routes to something other than the gateway`);
  return problems;
}

type Backend = { name?: string; port?: { name?: string; number?: number } } | undefined;

const ingressBackends = (objects: K8sObject[]): Backend[] =>
  objects
    .filter((o) => o.kind === 'Ingress')
    .flatMap((o) => o.spec?.rules ?? [])
    .flatMap((r) => r.http?.paths ?? [])
    .map((p) => p.backend?.service);

/** HTTPRoute backendRefs (kind Service, the default), as Ingress-style backends. */
function httpRouteBackends(objects: K8sObject[]): Backend[] {
  type Rule = { backendRefs?: { kind?: string; name?: string; port?: number }[] };
  return objects
    .filter((o) => o.kind === 'HTTPRoute')
    .flatMap((o) => (o.spec as { rules?: Rule[] } | undefined)?.rules ?? [])
    .flatMap((r) => r.backendRefs ?? [])
    .filter((ref) => (ref.kind ?? 'Service') === 'Service')
    .map((ref) => ({ name: ref.name, port: { number: ref.port } }));
}

/** `1` (one hop: the Ingress controller) or a comma-separated list of IPv4/IPv6 CIDRs (the proxies). */
export function isTrustedProxySetting(value: string | undefined): boolean {
  if (value === '1') return true;
  const cidr = /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-f:]+:[0-9a-f:]*\/\d{1,3})$/i;
  return !!value && value.split(',').every((part) => cidr.test(part.trim()));
}
