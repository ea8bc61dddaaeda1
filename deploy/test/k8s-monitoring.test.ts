// The prometheus-operator objects of the k8s base, rendered: the ServiceMonitor selects exactly the
// seven Services and scrapes a port each of them has, which leads to the containers' metrics port;
// the component for clusters without the operator's CRDs removes them and nothing else.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from './support/k8s.js';
import { renderKustomization } from './support/kubectl.js';
import { findComponentDirs } from './support/kustomize.js';
import { K8S, METRICS_PORT, SERVICES } from './support/topology.js';

interface ServiceMonitorSpec {
  selector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: unknown;
  endpoints?: { port?: string; path?: string }[];
}

const OPERATOR_GROUP = 'monitoring.coreos.com/v1';
const WITHOUT_OPERATOR = join(K8S, 'components', 'without-prometheus-operator');

/** The Services (by name) a ServiceMonitor selects among `objects`. */
function selectedServices(objects: K8sObject[], monitor: K8sObject): string[] {
  const spec = monitor.spec as unknown as ServiceMonitorSpec;
  const wanted = Object.entries(spec.selector?.matchLabels ?? {});
  return objects
    .filter((o) => o.kind === 'Service' && o.metadata?.namespace === monitor.metadata?.namespace)
    .filter((o) => wanted.length > 0 && wanted.every(([k, v]) => o.metadata?.labels?.[k] === v))
    .map((o) => o.metadata!.name!)
    .sort();
}

/** Problems of the scrape path: Service port named like the endpoint → container's METRICS_PORT. */
function scrapeProblems(objects: K8sObject[], monitor: K8sObject): string[] {
  const spec = monitor.spec as unknown as ServiceMonitorSpec;
  const problems: string[] = [];
  for (const endpoint of spec.endpoints ?? []) {
    for (const name of selectedServices(objects, monitor)) {
      const service = objects.find((o) => o.kind === 'Service' && o.metadata?.name === name)!;
      const port = service.spec?.ports?.find((p) => p.name === endpoint.port);
      const container = objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name)?.spec
        ?.template?.spec?.containers?.[0];
      const target = container?.ports?.find((p) =>
        typeof port?.targetPort === 'string'
          ? p.name === port.targetPort
          : p.containerPort === port?.targetPort,
      );
      if (!port) problems.push(`${name} Service has no port "${endpoint.port}"`);
      else if (target?.containerPort !== METRICS_PORT)
        problems.push(`${name} port "${endpoint.port}" does not lead to containerPort ${METRICS_PORT}`);
    }
  }
  return problems;
}

describe('prometheus-operator objects', () => {
  const objects = renderKustomization(join(K8S, 'overlays', 'local'));
  const monitors = objects.filter((o) => o.kind === 'ServiceMonitor');

  it('one ServiceMonitor selects exactly the seven Services and scrapes /metrics on their metrics port', () => {
    expect(monitors).toHaveLength(1);
    const monitor = monitors[0]!;
    expect(selectedServices(objects, monitor)).toEqual(SERVICES.map((s) => s.name).sort());
    expect((monitor.spec as unknown as ServiceMonitorSpec).endpoints).toEqual([
      expect.objectContaining({ port: 'metrics', path: '/metrics' }),
    ]);
    expect(scrapeProblems(objects, monitor)).toEqual([]);
  });

  it('the PrometheusRule is in the same namespace as the Services', () => {
    const rules = objects.filter((o) => o.kind === 'PrometheusRule');
    expect(rules.map((r) => r.metadata?.namespace)).toEqual([monitors[0]!.metadata?.namespace]);
  });

  it('the without-prometheus-operator component drops the ServiceMonitor and the PrometheusRule only', () => {
    expect(findComponentDirs(K8S)).toContain(WITHOUT_OPERATOR);
    const overlay = mkdtempSync(join(tmpdir(), 'no-operator-'));
    writeFileSync(
      join(overlay, 'kustomization.yaml'),
      [
        'resources:',
        `  - ${relative(overlay, join(K8S, 'overlays', 'local'))}`,
        'components:',
        `  - ${relative(overlay, WITHOUT_OPERATOR)}`,
        '',
      ].join('\n'),
    );
    const without = renderKustomization(overlay);
    expect(without.filter((o) => o.apiVersion === OPERATOR_GROUP)).toEqual([]);
    const key = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;
    expect(without.map(key).sort()).toEqual(
      objects
        .filter((o) => o.apiVersion !== OPERATOR_GROUP)
        .map(key)
        .sort(),
    );
  });

  describe('catches', () => {
    it('a selector that misses a Service, or a port the Services do not have', () => {
      const copy = structuredClone(objects);
      const monitor = copy.find((o) => o.kind === 'ServiceMonitor')!;
      const identity = copy.find((o) => o.kind === 'Service' && o.metadata?.name === 'identity')!;
      delete identity.metadata!.labels!['app.kubernetes.io/part-of'];
      expect(selectedServices(copy, monitor)).not.toContain('identity');
      (monitor.spec as unknown as ServiceMonitorSpec).endpoints![0]!.port = 'http-metrics';
      expect(scrapeProblems(copy, monitor).join('\n')).toMatch(/gateway Service has no port "http-metrics"/);
    });
  });
});
