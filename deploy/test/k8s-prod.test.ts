// The production overlay (deploy/k8s/overlays/prod) rendered with `kubectl kustomize` and checked
// against the rules of issue 23: resources and probes everywhere, images by digest, Pod Security
// `restricted`, a ServiceAccount per Deployment, topology spread, egress policies, the API/worker
// split with KEDA, the migrate and topics Jobs, the production settings, graceful shutdown, the
// HTTPRoute, kube-score; and the sandbox worker of issue 24 (Kafka and DNS only, none of the
// platform's secrets). The "catches" tests break a copy on purpose to prove each check bites.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkEgress, checkSandboxEgress, egressAllowed } from './support/k8s-egress.js';
import {
  checkGraceful,
  checkImages,
  checkResourcesAndProbes,
  checkRestricted,
  checkRoute,
  checkServiceAccounts,
  checkTopologySpread,
  named,
  type Obj,
} from './support/k8s-prod.js';
import {
  checkJobs,
  checkProductionEnv,
  checkScaledObjects,
  checkWorkerSplit,
} from './support/k8s-prod-split.js';
import { checkSandboxWorker, FORBIDDEN_SANDBOX_ENV } from './support/k8s-sandbox.js';
import { checkIgnoreReasons, scoreObjects } from './support/kube-score.js';
import { renderKustomization } from './support/kubectl.js';
import { clone } from './support/parse.js';
import { K8S } from './support/topology.js';

const ALL_CHECKS = {
  'resources and probes': checkResourcesAndProbes,
  'images by digest': checkImages,
  'pod security restricted': checkRestricted,
  'a ServiceAccount per Deployment': checkServiceAccounts,
  'topology spread': checkTopologySpread,
  'egress policies': checkEgress,
  'workers apart': checkWorkerSplit,
  'KEDA ScaledObjects': checkScaledObjects,
  'migrate and topics Jobs': checkJobs,
  'production settings': checkProductionEnv,
  'preStop and grace': checkGraceful,
  'HTTPRoute to the gateway': checkRoute,
  'kube-score exceptions with reasons': checkIgnoreReasons,
  'the sandbox worker: its variables, Kafka user, token, ingress': checkSandboxWorker,
  'the sandbox worker reaches Kafka and DNS only': checkSandboxEgress,
};
const allProblems = (objects: Obj[]) => Object.values(ALL_CHECKS).flatMap((check) => check(objects));

describe('the production overlay', () => {
  let rendered: Obj[];
  beforeAll(() => {
    rendered = renderKustomization(join(K8S, 'overlays', 'prod')) as Obj[];
  }, 120_000);
  const copy = () => clone(rendered);
  const deployment = (objects: Obj[], name: string) => named(objects, 'Deployment', name)!;
  const container = (objects: Obj[], name: string) =>
    deployment(objects, name).spec.template.spec.containers[0];

  it.each(Object.entries(ALL_CHECKS))('%s', (_, check) => {
    expect(check(rendered)).toEqual([]);
  });

  it('kube-score passes with its default checks (exceptions only by annotation)', () => {
    const { status, findings } = scoreObjects(rendered);
    expect(findings).toEqual([]);
    expect(status).toBe(0);
  }, 120_000);

  describe('the sandbox worker', () => {
    const podOf = (objects: Obj[], name: string) => deployment(objects, name).spec.template.metadata.labels;
    const labels = (objects: Obj[]) => podOf(objects, 'sandbox-worker');
    const store = (objects: Obj[], name: string) => {
      const rule = named(objects, 'NetworkPolicy', `egress-${name}`)!.spec.egress[0];
      return { ip: rule.to[0].ipBlock.cidr.split('/')[0], port: rule.ports[0].port };
    };

    it('opens connections to Kafka and DNS, and to no store, service, collector or address else', () => {
      const from = labels(rendered);
      const can = (to: Parameters<typeof egressAllowed>[2]) => egressAllowed(rendered, from, to);
      const dns = {
        namespace: { 'kubernetes.io/metadata.name': 'kube-system' },
        pod: { 'k8s-app': 'kube-dns' },
      };
      expect(can({ ...dns, port: 53, protocol: 'UDP' })).toBe(true);
      expect(can(store(rendered, 'kafka'))).toBe(true);
      expect(can(store(rendered, 'postgres'))).toBe(false);
      expect(can(store(rendered, 'redis'))).toBe(false);
      expect(can(store(rendered, 'mongo'))).toBe(false);
      const monitoring = { 'kubernetes.io/metadata.name': 'monitoring' };
      expect(
        can({ namespace: monitoring, pod: { 'app.kubernetes.io/name': 'otel-collector' }, port: 4318 }),
      ).toBe(false);
      const services = {
        gateway: 8080,
        identity: 50061,
        models: 50064,
        workflows: 50065,
        observability: 9464,
      };
      for (const [service, port] of Object.entries(services))
        expect(can({ pod: podOf(rendered, service), port })).toBe(false);
      for (const ip of ['8.8.8.8', '2001:4860:4860::8888', '169.254.169.254', '10.0.0.1'])
        for (const port of [80, 443, 9092]) expect(can({ ip, port })).toBe(false);
      // Only the Kafka label: no store, internet or collector label for the policies to select.
      expect(Object.keys(from).filter((k) => k.startsWith('agent-platform.io/'))).toEqual([
        'agent-platform.io/kafka',
      ]);
    });

    it('holds none of the forbidden variables, and its own Kafka user', () => {
      const c = container(rendered, 'sandbox-worker');
      const names: string[] = c.env.map((e: Obj) => e.name);
      expect(c.envFrom ?? []).toEqual([]);
      expect(names.filter((n) => FORBIDDEN_SANDBOX_ENV.some((re) => re.test(n)))).toEqual([]);
      const secrets = c.env.map((e: Obj) => e.valueFrom?.secretKeyRef?.name).filter(Boolean);
      expect([...new Set(secrets)]).toEqual(['sandbox-kafka']);
      expect(c.env.find((e: Obj) => e.name === 'PROCESS_ROLE').value).toBe('sandbox');
      expect(c.image).toBe(container(rendered, 'workflows').image);
    });

    it("is scraped by the workers' PodMonitor on its metrics port (it has no Service)", () => {
      const monitor = named(rendered, 'PodMonitor', 'agent-platform-workers')!;
      const pod = labels(rendered);
      for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels)) expect(pod[k]).toBe(v);
      const port = monitor.spec.podMetricsEndpoints[0].port;
      expect(container(rendered, 'sandbox-worker').ports).toContainEqual(
        expect.objectContaining({ name: port, containerPort: 9464 }),
      );
    });

    it('scales on the lag of workers.sandbox on queue.sandbox, within its 12 partitions', () => {
      const so = named(rendered, 'ScaledObject', 'sandbox-worker')!;
      expect(so.spec.triggers[0].metadata).toMatchObject({
        consumerGroup: 'workers.sandbox',
        topic: 'queue.sandbox',
      });
      expect(so.spec.maxReplicaCount).toBeLessThanOrEqual(12);
      expect(named(rendered, 'HorizontalPodAutoscaler', 'sandbox-worker')).toBeUndefined();
    });
  });

  describe('catches', () => {
    const problemsAfter = (mutate: (objects: Obj[]) => void) => {
      const objects = copy();
      mutate(objects);
      return allProblems(objects).join('\n');
    };

    it('a missing limit or probe, a :latest or tag-only image', () => {
      const out = problemsAfter((objects) => {
        delete container(objects, 'apikeys').resources.limits.memory;
        delete container(objects, 'workflows-worker').startupProbe;
        container(objects, 'models').image = 'registry.example.com/agent-platform/models:latest';
        named(objects, 'Job', 'kafka-topics')!.spec.template.spec.containers[0].image =
          'agent-platform/identity:v1';
      });
      expect(out).toMatch(/Deployment apikeys apikeys has no memory limits/);
      expect(out).toMatch(/Deployment workflows-worker workflows-worker has no startupProbe/);
      expect(out).toMatch(/Deployment models models image .*:latest uses :latest/);
      expect(out).toMatch(/Job kafka-topics kafka-topics image agent-platform\/identity:v1 is not registry/);
    });

    it('a pod Pod Security restricted refuses, a namespace without the labels', () => {
      const out = problemsAfter((objects) => {
        container(objects, 'gateway').securityContext.allowPrivilegeEscalation = true;
        container(objects, 'identity').securityContext.capabilities = { add: ['NET_ADMIN'] };
        named(objects, 'Namespace', 'agent-platform')!.metadata.labels['pod-security.kubernetes.io/enforce'] =
          'baseline';
      });
      expect(out).toMatch(/Deployment gateway gateway allows privilege escalation/);
      expect(out).toMatch(/Deployment identity identity does not drop ALL capabilities/);
      expect(out).toMatch(/Namespace agent-platform is not enforce: restricted/);
    });

    it('a shared ServiceAccount, a lax zone spread', () => {
      const out = problemsAfter((objects) => {
        deployment(objects, 'models').spec.template.spec.serviceAccountName = 'default';
        deployment(
          objects,
          'notifications-worker',
        ).spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable = 'ScheduleAnyway';
      });
      expect(out).toMatch(/Deployment models runs as ServiceAccount default, not its own/);
      expect(out).toMatch(/Deployment notifications-worker does not spread strictly over zones/);
    });

    it('the internet opened to a service that needs none, the metadata address to one that does', () => {
      const out = problemsAfter((objects) => {
        deployment(objects, 'identity').spec.template.metadata.labels['agent-platform.io/egress'] =
          'internet';
        const internet = named(objects, 'NetworkPolicy', 'egress-internet')!;
        internet.spec.egress[0].to[0].ipBlock.except = ['10.0.0.0/8'];
      });
      expect(out).toMatch(/identity can reach 8\.8\.8\.8, expected refused/);
      expect(out).toMatch(/models can reach 169\.254\.169\.254, expected refused/);
      expect(out).toMatch(/workflows-worker can reach 192\.168\.1\.1, expected refused/);
    });

    it('no default deny, a worker cut off from what its service calls, a Job without its store', () => {
      const out = problemsAfter((objects) => {
        objects.splice(objects.indexOf(named(objects, 'NetworkPolicy', 'default-deny-egress')!), 1);
        const grpc = named(objects, 'NetworkPolicy', 'workflows-worker-egress-grpc')!;
        grpc.spec.egress = grpc.spec.egress.slice(0, 1);
        const identity = named(objects, 'NetworkPolicy', 'identity-grpc')!;
        identity.spec.ingress[0].from = identity.spec.ingress[0].from.filter(
          (peer: Obj) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] !== 'notifications-worker',
        );
        delete named(objects, 'Job', 'identity-migrate')!.spec.template.metadata.labels[
          'agent-platform.io/postgres'
        ];
      });
      expect(out).toMatch(/no default-deny egress NetworkPolicy/);
      expect(out).toMatch(/workflows-worker cannot reach models:50064, expected allowed/);
      expect(out).toMatch(/identity-migrate cannot reach postgres, expected allowed/);
      expect(out).toMatch(/identity's ingress policy refuses notifications-worker on 50061/);
    });

    it('a worker without its role or with another environment, an API still running workers', () => {
      const out = problemsAfter((objects) => {
        const env = container(objects, 'observability-worker').env;
        env.splice(
          env.findIndex((e: Obj) => e.name === 'PROCESS_ROLE'),
          1,
        );
        container(objects, 'workflows-worker').env.push({ name: 'RUN_WORKER_CONCURRENCY', value: '64' });
        const api = container(objects, 'notifications').env;
        api.find((e: Obj) => e.name === 'PROCESS_ROLE').value = 'all';
      });
      expect(out).toMatch(/observability-worker does not run PROCESS_ROLE=worker/);
      expect(out).toMatch(/workflows-worker's environment differs from workflows's/);
      expect(out).toMatch(/notifications does not run PROCESS_ROLE=api/);
    });

    it('a ScaledObject on a missing Deployment or on the wrong group', () => {
      const out = problemsAfter((objects) => {
        named(objects, 'ScaledObject', 'notifications-worker')!.spec.scaleTargetRef.name =
          'notification-worker';
        named(objects, 'ScaledObject', 'workflows-worker')!.spec.triggers[0].metadata.consumerGroup =
          'workflows';
      });
      expect(out).toMatch(/ScaledObject notifications-worker targets no Deployment of the overlay/);
      expect(out).toMatch(/notifications-worker does not scale on the lag of workers.default/);
      expect(out).toMatch(/workflows-worker does not scale on the lag of workers.workflow on queue.workflow/);
    });

    it('a missing migrate Job, wrong args, a Deployment with the migration role', () => {
      const out = problemsAfter((objects) => {
        objects.splice(objects.indexOf(named(objects, 'Job', 'models-migrate')!), 1);
        named(objects, 'Job', 'kafka-topics')!.spec.template.spec.containers[0].args = [
          'node',
          'dist/main.js',
        ];
        container(objects, 'apikeys').env.find(
          (e: Obj) => e.name === 'DATABASE_URL',
        ).valueFrom.secretKeyRef.name = 'apikeys-database-migration';
      });
      expect(out).toMatch(/no Job models-migrate/);
      expect(out).toMatch(
        /Job kafka-topics args \["node","dist\/main.js"\], expected node dist\/main.js kafka-topics/,
      );
      expect(out).toMatch(/Deployment apikeys reads apikeys-database-migration/);
    });

    it('migrating or creating topics at start, a gateway trusting one hop', () => {
      const out = problemsAfter((objects) => {
        const config = objects.find(
          (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('platform-config'),
        )!;
        config.data.MIGRATE_ON_START = 'true';
        container(objects, 'identity').env.push({ name: 'KAFKA_TOPIC_MODE', value: 'create' });
        config.data.TRUST_PROXY = '1';
      });
      expect(out).toMatch(/Deployment gateway does not set MIGRATE_ON_START=false/);
      expect(out).toMatch(/Deployment identity does not set KAFKA_TOPIC_MODE=verify/);
      expect(out).toMatch(/gateway TRUST_PROXY=1, expected the proxies' address range/);
    });

    it('no preStop, a grace shorter than the drain, a route to a wrong port, a leftover Ingress', () => {
      const out = problemsAfter((objects) => {
        delete container(objects, 'apikeys').lifecycle;
        deployment(objects, 'workflows-worker').spec.template.spec.terminationGracePeriodSeconds = 30;
        named(objects, 'HTTPRoute', 'gateway')!.spec.rules[0].backendRefs[0].port = 8080;
        objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'gateway' } });
      });
      expect(out).toMatch(/Deployment apikeys has no preStop delay/);
      expect(out).toMatch(/Deployment workflows-worker grace 30 s is below its preStop \+ drain/);
      expect(out).toMatch(/HTTPRoute backend gateway:8080 is not a gateway Service port/);
      expect(out).toMatch(/an Ingress is left beside the HTTPRoute/);
    });

    it('a sandbox worker given the internet, Redis or a database, or the collector for every pod', () => {
      const out = problemsAfter((objects) => {
        const pod = deployment(objects, 'sandbox-worker').spec.template;
        pod.metadata.labels['agent-platform.io/egress'] = 'internet';
        pod.metadata.labels['agent-platform.io/redis'] = 'client';
        pod.spec.containers[0].env.push({
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: { name: 'workflows-database', key: 'DATABASE_URL' } },
        });
        named(objects, 'NetworkPolicy', 'egress-telemetry')!.spec.podSelector = {};
      });
      expect(out).toMatch(/sandbox-worker can reach 8\.8\.8\.8, expected refused/);
      expect(out).toMatch(/sandbox-worker can reach 1\.1\.1\.1:9092, expected refused/);
      expect(out).toMatch(/sandbox-worker can reach redis, expected refused/);
      expect(out).toMatch(/sandbox-worker can reach the OTLP collector, expected refused/);
      expect(out).toMatch(/Deployment sandbox-worker is given DATABASE_URL/);
    });

    it("the base's Kafka-ports-anywhere rule left in, the sandbox worker's ScaledObject on another group", () => {
      const out = problemsAfter((objects) => {
        objects.push({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicy',
          metadata: { name: 'sandbox-worker-egress' },
          spec: {
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sandbox-worker' } },
            policyTypes: ['Egress'],
            egress: [{ ports: [{ protocol: 'TCP', port: 9092, endPort: 9096 }] }],
          },
        });
        named(objects, 'ScaledObject', 'sandbox-worker')!.spec.triggers[0].metadata.consumerGroup =
          'workers.workflow';
        delete container(objects, 'sandbox-worker').env.find((e: Obj) => e.name === 'POD_NAME').valueFrom;
      });
      expect(out).toMatch(/sandbox-worker can reach 8\.8\.8\.8:9092, expected refused/);
      expect(out).toMatch(/sandbox-worker does not scale on the lag of workers.sandbox on queue.sandbox/);
      expect(out).toMatch(/sandbox-worker POD_NAME does not come from the downward API/);
    });

    it('a kube-score finding, an exception without its reason', () => {
      const objects = copy();
      const gateway = deployment(objects, 'gateway');
      delete gateway.metadata.annotations['kube-score.agent-platform.io/deployment-has-host-podantiaffinity'];
      expect(checkIgnoreReasons(objects)).toEqual([
        'Deployment gateway ignores deployment-has-host-podantiaffinity without a reason',
      ]);
      delete gateway.metadata.annotations['kube-score/ignore'];
      const { status, findings } = scoreObjects(objects);
      expect(status).not.toBe(0);
      expect(findings.join('\n')).toMatch(/gateway.*(identical|pull|antiaffinity)/i);
    }, 120_000);
  });
});
