// Validates every rendered kustomization under deploy/k8s with kubeconform against the JSON
// schemas generated from the Kubernetes OpenAPI document (k8s.io/kubernetes, the same minor as our
// kubectl): wrong types, misspelt or misplaced fields and missing required fields fail here, as
// they would at `kubectl apply`. The "catches" tests break a copy on purpose to prove it bites.
import { relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { K8sObject } from './support/k8s.js';
import { kubeconform, validateWithKubeconform } from './support/kubeconform.js';
import { renderKustomization } from './support/kubectl.js';
import { findKustomizationDirs } from './support/kustomize.js';
import { clone } from './support/parse.js';
import { K8S, REPO } from './support/topology.js';

describe('kubernetes manifests against the Kubernetes API schemas (kubeconform)', () => {
  const dirs = findKustomizationDirs(K8S);
  const rendered = new Map<string, K8sObject[]>();

  beforeAll(() => {
    kubeconform();
    for (const dir of dirs) rendered.set(dir, renderKustomization(dir));
  }, 600_000);

  it.each(dirs.map((d) => [relative(REPO, d), d] as const))(
    '%s validates strictly',
    (_, dir) => {
      const objects = rendered.get(dir)!;
      const result = validateWithKubeconform(objects);
      expect(result.problems).toEqual([]);
      expect(result).toMatchObject({ valid: objects.length, invalid: 0, errors: 0, skipped: 0 });
    },
    60_000,
  );

  describe('catches', () => {
    const base = () => clone(rendered.get(dirs.find((d) => relative(K8S, d) === 'base')!)!);
    const deployment = (objects: K8sObject[]) => objects.find((o) => o.kind === 'Deployment')!;

    const container = (objects: K8sObject[]) => (deployment(objects) as any).spec.template.spec.containers[0];

    it('a misspelt field', () => {
      const objects = base();
      container(objects).imagePullPolicey = 'Always';
      expect(validateWithKubeconform(objects).problems.join('\n')).toMatch(/imagePullPolicey/);
    });

    it('a wrong type', () => {
      const objects = base();

      (deployment(objects) as any).spec.replicas = 'two';
      expect(validateWithKubeconform(objects).invalid).toBe(1);
    });

    it('a missing required field', () => {
      const objects = base();
      delete container(objects).name;
      expect(validateWithKubeconform(objects).problems.join('\n')).toMatch(/name/);
    });

    it('a misspelt field or a wrong type in the prometheus-operator objects (CRD schemas)', () => {
      const objects = base();
      const monitor = objects.find((o) => o.kind === 'ServiceMonitor') as any;
      monitor.spec.endpoints[0].intervall = '30s';
      const rule = objects.find((o) => o.kind === 'PrometheusRule') as any;
      rule.spec.groups[0].rules = 'GatewayErrorRatioHigh';
      const result = validateWithKubeconform(objects);
      expect(result.problems.join('\n')).toMatch(/ServiceMonitor agent-platform: statusInvalid .*intervall/);
      expect(result.problems.join('\n')).toMatch(/PrometheusRule agent-platform-alerts: statusInvalid/);
    });

    it('a misspelt field or a wrong type in the KEDA and Gateway API objects (CRD schemas)', () => {
      const objects = clone(rendered.get(dirs.find((d) => relative(K8S, d) === 'overlays/prod')!)!);
      const scaled = objects.find((o) => o.kind === 'ScaledObject') as any;
      scaled.spec.maxReplicaCont = 12;
      const auth = objects.find((o) => o.kind === 'TriggerAuthentication') as any;
      auth.spec.secretTargetRef = 'keda-kafka';
      const route = objects.find((o) => o.kind === 'HTTPRoute') as any;
      route.spec.rules[0].backendRefs[0].port = 'http';
      const result = validateWithKubeconform(objects);
      const problems = result.problems.join('\n');
      expect(problems).toMatch(/ScaledObject [a-z-]+-worker: statusInvalid .*maxReplicaCont/);
      expect(problems).toMatch(/TriggerAuthentication kafka-lag-reader: statusInvalid/);
      expect(problems).toMatch(/HTTPRoute gateway: statusInvalid/);
    }, 60_000);

    it('a kind the schemas do not know', () => {
      const objects = base();
      objects.push({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } } as K8sObject);
      const result = validateWithKubeconform(objects);
      expect(result.errors + result.invalid).toBeGreaterThan(0);
    });
  });
});
