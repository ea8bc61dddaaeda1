// Checks every Kubernetes manifest under deploy/k8s against the platform's topology, Secret
// audiences and NetworkPolicies; needs no cluster. The kustomizations are also rendered with
// `kubectl kustomize` (kubectl is required: `./platform tools` installs it) and the rendered output
// must pass the same checks. The "catches" tests break a copy of the real
// objects on purpose to prove the checks bite.
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkK8s, type K8sObject } from './support/k8s.js';
import {
  checkKustomizationFiles,
  findKustomizationDirs,
  kustomizationObjects,
  readKustomization,
  secretExamples,
  secretKeysByName,
  SECRET_EXAMPLE,
} from './support/kustomize.js';
import { egressAllowed, type Destination } from './support/k8s-egress.js';
import { checkSandboxWorker } from './support/k8s-sandbox.js';
import { checkNetworkPolicies, checkSecrets, ingressAllowed } from './support/k8s-security.js';
import { kubectl, renderKustomization } from './support/kubectl.js';
import { clone, yamlDocuments } from './support/parse.js';
import { GRPC_CALLERS, K8S, OWN_SECRET_VALUE, REPO, SECRET_AUDIENCE, SERVICES } from './support/topology.js';

describe('kubernetes manifests', () => {
  const dirs = findKustomizationDirs(K8S);
  const examples = secretExamples();
  const secretKeys = secretKeysByName(examples);
  const allChecks = (objects: K8sObject[], label: string) => [
    ...checkK8s(objects, label, secretKeys),
    ...checkSecrets(objects, label, examples),
    ...checkNetworkPolicies(objects, label),
    ...checkSandboxWorker(objects).map((problem) => `${label}: ${problem}`),
  ];

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

  it('secret.example.yaml is an unlisted set of Secrets, one per audience', () => {
    const docs = yamlDocuments(SECRET_EXAMPLE) as K8sObject[];
    expect(docs.every((d) => d.kind === 'Secret')).toBe(true);
    for (const dir of dirs)
      expect(readKustomization(dir).resources ?? []).not.toContain('secret.example.yaml');
    const holder = (key: string) => examples.filter((e) => e.keys.has(key)).map((e) => e.name);
    // Each trust key in a Secret of its own audience, never bundled with a wider one; a service
    // with a value of its own (OWN_SECRET_VALUE) reads it from a Secret for it alone.
    for (const [key, audience] of Object.entries(SECRET_AUDIENCE)) {
      const own = Object.keys(OWN_SECRET_VALUE).filter((s) => OWN_SECRET_VALUE[s]?.[key]);
      const holders = holder(key).map((name) => examples.find((e) => e.name === name)!.audience.sort());
      // The shared Secret of the rest of the audience; none when every holder has its own value.
      const shared = audience.filter((s) => !own.includes(s)).sort();
      const expected = [...(shared.length > 0 ? [shared] : []), ...own.map((s) => [s])];
      expect(holders).toEqual(expect.arrayContaining(expected));
      expect(holders).toHaveLength(expected.length);
    }
    // Models never shares the Secret whose SECRET_KEY signs user JWTs.
    expect(holder('SECRET_KEY').sort()).toEqual(['models-secret-key', 'platform-secret-key']);
    expect(holder('PRINCIPAL_SIGNING_PRIVATE_KEY')).toEqual(['principal-signing-key']);
    for (const key of ['REDIS_URL', 'MONGO_URL']) expect(holder(key)).toHaveLength(1);
    // The platform's Kafka user, and the sandbox worker's own (its two topics only).
    for (const key of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'])
      expect(holder(key).sort()).toEqual(['platform-kafka', 'sandbox-kafka']);
    expect(holder('DATABASE_URL')).toHaveLength(5);
  });

  it.each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s: topology of the listed manifests',
    (label, dir) => {
      expect(allChecks(kustomizationObjects(dir), label)).toEqual([]);
    },
  );

  // kubectl is part of the toolchain (`./platform tools` installs it): missing, these fail, never skip.
  it('kubectl is installed', () => {
    expect(kubectl(), 'kubectl not found: run `./platform tools` (or set KUBECTL)').toBeTruthy();
  });

  it.each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s: rendered with kubectl kustomize',
    (label, dir) => {
      const objects = renderKustomization(dir);
      expect(allChecks(objects, `${label} (rendered)`)).toEqual([]);
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
      return allChecks(objects, 'base').join('\n');
    };
    const container = (objects: K8sObject[], name: string) =>
      get(objects, 'Deployment', name).spec!.template!.spec!.containers![0]!;
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
    it('a trust key or SECRET_KEY outside its audience', () => {
      const out = problemsAfter((objects) => {
        const secretRef = (name: string, key: string) => ({
          name: key,
          valueFrom: { secretKeyRef: { name, key } },
        });
        container(objects, 'workflows').env!.push(
          secretRef('principal-signing-key', 'PRINCIPAL_SIGNING_PRIVATE_KEY'),
        );
        container(objects, 'apikeys').env!.push(secretRef('platform-secret-key', 'SECRET_KEY'));
        container(objects, 'observability').envFrom!.push({ secretRef: { name: 'platform-secret-key' } });
      });
      expect(out).toMatch(/workflows reads Secret key PRINCIPAL_SIGNING_PRIVATE_KEY, which only gateway/);
      expect(out).toMatch(/apikeys is given SECRET_KEY, which only gateway, identity, models/);
      expect(out).toMatch(/observability mounts Secret platform-secret-key with SECRET_KEY/);
      expect(out).toMatch(
        /Secret principal-signing-key is read by \[gateway,workflows\], its audience is \[gateway\]/,
      );
    });
    it("a service reading another service's signing key", () => {
      const out = problemsAfter((objects) => {
        // workflows (user-defined HTTP requests) given the gateway's key: it could sign as the gateway.
        const own = container(objects, 'workflows').env!.find(
          (e) => e.name === 'SERVICE_SIGNING_PRIVATE_KEY',
        )!;
        own.valueFrom = {
          secretKeyRef: { name: 'service-signing-key-gateway', key: 'SERVICE_SIGNING_PRIVATE_KEY' },
        };
      });
      expect(out).toMatch(
        /Secret service-signing-key-gateway is read by \[gateway,workflows\], its audience is \[gateway\]/,
      );
      expect(out).toMatch(
        /Secret service-signing-key-workflows is read by \[\], its audience is \[workflows\]/,
      );
    });
    it('a credential written into a Deployment or the ConfigMap, or a Secret in the manifests', () => {
      const out = problemsAfter((objects) => {
        const env = container(objects, 'models').env!;
        env.find((e) => e.name === 'REDIS_URL')!.valueFrom = undefined;
        env.find((e) => e.name === 'REDIS_URL')!.value = 'redis://:hunter2@redis:6379/0';
        get(objects, 'ConfigMap', 'platform-config').data!.KAFKA_SASL_PASSWORD = 'hunter2';
        objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'service-signing-key-gateway' } });
      });
      expect(out).toMatch(/models REDIS_URL is written into the Deployment/);
      expect(out).toMatch(/models REDIS_URL holds a credential in plain text/);
      expect(out).toMatch(/ConfigMap platform-config holds credential KAFKA_SASL_PASSWORD/);
      expect(out).toMatch(/Secret service-signing-key-gateway is in the manifests/);
    });
    it('a TZ set apart from platform-config, or no zone at all', () => {
      const out = problemsAfter((objects) => {
        container(objects, 'apikeys').env!.push({ name: 'TZ', value: 'Asia/Tokyo' });
        get(objects, 'ConfigMap', 'platform-config').data!.TZ = 'Mars/Olympus';
      });
      expect(out).toMatch(/apikeys sets TZ itself/);
      expect(out).toMatch(/gateway TZ=Mars\/Olympus is not a time zone/);
    });
    it('a gateway that does not name client addresses from the Ingress hop', () => {
      const out = problemsAfter((objects) => {
        delete get(objects, 'ConfigMap', 'platform-config').data!.TRUST_PROXY;
      });
      expect(out).toMatch(/gateway TRUST_PROXY=undefined, expected 1/);
    });
    it('a missing or too wide NetworkPolicy', () => {
      const out = problemsAfter((objects) => {
        const policy = (name: string) => get(objects, 'NetworkPolicy', name);
        objects.splice(objects.indexOf(policy('default-deny-ingress')), 1);
        // metrics-scrape selects every pod too, which alone would keep them isolated.
        objects.splice(objects.indexOf(policy('metrics-scrape')), 1);
        objects.splice(objects.indexOf(policy('workflows-grpc')), 1);
        (policy('apikeys-grpc').spec as { ingress: unknown[] }).ingress = [{}];
        (policy('models-grpc').spec as { ingress: { from: unknown[] }[] }).ingress[0]!.from.pop();
      });
      expect(out).toMatch(/no default-deny ingress NetworkPolicy/);
      expect(out).toMatch(/another pod of the namespace can reach workflows:50065, expected refused/);
      expect(out).toMatch(/outside the namespace can reach apikeys:50062, expected refused/);
      expect(out).toMatch(/identity can reach apikeys:50062/);
      expect(out).toMatch(/workflows cannot reach models:50064, expected allowed/);
    });
    it('a sandbox worker given a store, a key, the platform config or the platform Kafka user', () => {
      const out = problemsAfter((objects) => {
        const c = container(objects, 'sandbox-worker');
        c.env!.push({
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: { name: 'workflows-database', key: 'DATABASE_URL' } },
        });
        c.env!.push({
          name: 'SERVICE_SIGNING_PRIVATE_KEY',
          valueFrom: {
            secretKeyRef: { name: 'service-signing-key-workflows', key: 'SERVICE_SIGNING_PRIVATE_KEY' },
          },
        });
        c.envFrom = [{ configMapRef: { name: 'platform-config' } }];
        c.env!.find((e) => e.name === 'KAFKA_SASL_PASSWORD')!.valueFrom!.secretKeyRef!.name =
          'platform-kafka';
      });
      expect(out).toMatch(/Deployment sandbox-worker is given DATABASE_URL/);
      expect(out).toMatch(/sandbox-worker is given SERVICE_SIGNING_PRIVATE_KEY, which only gateway/);
      expect(out).toMatch(/Deployment sandbox-worker loads ConfigMap platform-config as a whole/);
      expect(out).toMatch(/Deployment sandbox-worker is given WORKFLOWS_GRPC_ADDR/);
      expect(out).toMatch(/Secret platform-kafka is read by \[.*sandbox-worker.*\], its audience is/);
      expect(out).toMatch(/Secret service-signing-key-workflows is read by \[sandbox-worker,workflows\]/);
    });
    it('a sandbox worker with a token, a Service, a volume, or reachable on its gRPC port', () => {
      const out = problemsAfter((objects) => {
        const d = get(objects, 'Deployment', 'sandbox-worker');
        const pod = d.spec!.template!.spec! as Record<string, unknown>;
        pod.automountServiceAccountToken = true;
        pod.volumes = [{ name: 'tmp', emptyDir: {} }];
        objects.push({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'sandbox-worker' },
          spec: { selector: { 'app.kubernetes.io/name': 'sandbox-worker' }, ports: [{ port: 50067 }] },
        });
        objects.push({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicy',
          metadata: { name: 'sandbox-open' },
          spec: {
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sandbox-worker' } },
            policyTypes: ['Ingress'],
            ingress: [{ from: [{ podSelector: {} }], ports: [{ port: 50067 }] }],
          },
        } as K8sObject);
      });
      expect(out).toMatch(/Deployment sandbox-worker does not run as its own ServiceAccount without a token/);
      expect(out).toMatch(/Deployment sandbox-worker has volumes/);
      expect(out).toMatch(/Service sandbox-worker selects sandbox-worker/);
      expect(out).toMatch(/another pod of the namespace can reach sandbox-worker:50067, expected refused/);
      expect(out).toMatch(/workflows can reach sandbox-worker:50067, expected refused/);
    });
  });

  describe('catches (metrics)', () => {
    const base = join(K8S, 'base');
    const mutated = (mutate: (objects: K8sObject[]) => void) => {
      const objects = clone(kustomizationObjects(base));
      mutate(objects);
      return allChecks(objects, 'base').join('\n');
    };
    const get = (objects: K8sObject[], kind: string, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata?.name === name)!;
    type Ingress = { from: { namespaceSelector?: unknown; podSelector?: unknown }[]; ports: unknown[] }[];
    const scrapeRules = (objects: K8sObject[]) =>
      (get(objects, 'NetworkPolicy', 'metrics-scrape').spec as unknown as { ingress: Ingress }).ingress;

    it('a metrics port missing from a Deployment or a Service', () => {
      const out = mutated((objects) => {
        const c = get(objects, 'Deployment', 'models').spec!.template!.spec!.containers![0]!;
        c.ports = c.ports!.filter((p) => p.name !== 'metrics');
        const svc = get(objects, 'Service', 'apikeys');
        svc.spec!.ports = svc.spec!.ports!.filter((p) => p.name !== 'metrics');
        get(objects, 'Service', 'identity').spec!.ports!.find((p) => p.name === 'metrics')!.targetPort =
          'grpc';
      });
      expect(out).toMatch(/models container does not declare the metrics port 9464/);
      expect(out).toMatch(/apikeys Service has no metrics port/);
      expect(out).toMatch(/identity Service port 9464 targets grpc, not containerPort 9464/);
    });
    it('no scrape policy, or one open to anyone, or to more than the metrics port', () => {
      expect(
        mutated((objects) => {
          objects.splice(objects.indexOf(get(objects, 'NetworkPolicy', 'metrics-scrape')), 1);
        }),
      ).toMatch(/the monitoring Prometheus cannot reach workflows:9464, expected allowed/);
      expect(
        mutated((objects) => {
          delete scrapeRules(objects)[0]!.from[0]!.podSelector;
        }),
      ).toMatch(/another pod of the monitoring namespace can reach gateway:9464, expected refused/);
      expect(
        mutated((objects) => {
          scrapeRules(objects)[0]!.from = [];
        }),
      ).toMatch(/another pod of the namespace can reach identity:9464, expected refused/);
      expect(
        mutated((objects) => {
          scrapeRules(objects)[0]!.ports = [];
        }),
      ).toMatch(/the monitoring Prometheus can reach models:50064, expected refused/);
    });
  });

  it('the base keeps the sandbox worker to DNS and the Kafka ports, and every other pod unrestricted', () => {
    const objects = renderKustomization(join(K8S, 'base'));
    const pod = (name: string) =>
      objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name)!.spec!.template!.metadata!
        .labels!;
    const can = (name: string, to: Destination) => egressAllowed(objects, pod(name), to);
    const dns = {
      namespace: { 'kubernetes.io/metadata.name': 'kube-system' },
      pod: { 'k8s-app': 'kube-dns' },
    };
    expect(can('sandbox-worker', { ...dns, port: 53, protocol: 'UDP' })).toBe(true);
    for (const port of [9092, 9093, 9096]) expect(can('sandbox-worker', { ip: '10.1.2.3', port })).toBe(true);
    for (const [ip, port] of [
      ['8.8.8.8', 443],
      ['169.254.169.254', 80],
      ['10.1.2.3', 5432],
      ['10.1.2.3', 6379],
      ['10.1.2.3', 27017],
      ['10.1.2.3', 4318],
      ['10.1.2.3', 9097],
    ] as const)
      expect(can('sandbox-worker', { ip, port }), `${ip}:${port}`).toBe(false);
    for (const [name, port] of [
      ['workflows', 50065],
      ['identity', 50061],
    ] as const)
      expect(can('sandbox-worker', { pod: pod(name), port })).toBe(false);
    expect(can('workflows', { ip: '8.8.8.8', port: 443 })).toBe(true);
  });

  describe('NetworkPolicies, as a connection matrix of the rendered overlay', () => {
    const objects = renderKustomization(join(K8S, 'overlays', 'local'));
    const labels = (name: string) =>
      objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name)!.spec!.template!.metadata!
        .labels!;
    it.each(SERVICES.map((s) => [s.name, s] as const))('%s: exactly its callers get in', (_, target) => {
      const callers = SERVICES.filter((from) =>
        ingressAllowed(objects, { labels: labels(from.name) }, labels(target.name), target.port),
      ).map((s) => s.name);
      const expected = target.protocol === 'http' ? SERVICES.map((s) => s.name) : GRPC_CALLERS[target.name];
      expect(callers).toEqual(expected);
      // Another port of the same pod stays closed, even to a caller.
      expect(ingressAllowed(objects, { labels: labels('gateway') }, labels(target.name), 9999)).toBe(false);
    });
  });
});
