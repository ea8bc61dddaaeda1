// Checks every Kubernetes manifest under deploy/k8s against the platform's topology; needs no
// cluster. When `kubectl` is on PATH, the kustomizations are also rendered (`kubectl kustomize`) and
// the rendered output must pass the same checks. The "catches" tests break a copy of the real
// objects on purpose to prove the checks bite.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkK8s, type K8sObject } from './support/k8s.js';
import {
  checkKustomizationFiles,
  findKustomizationDirs,
  kustomizationObjects,
  readKustomization,
  secretExampleKeys,
  SECRET_EXAMPLE,
} from './support/kustomize.js';
import { clone, yamlDocuments } from './support/parse.js';
import { K8S, REPO } from './support/topology.js';

function hasKubectl(): boolean {
  try {
    return spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
  } catch {
    return false;
  }
}

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
