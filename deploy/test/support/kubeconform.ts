// Validating rendered manifests with kubeconform against the Kubernetes OpenAPI schemas
// and the prometheus-operator CRD schemas (deploy/tools/install-kubeconform.sh installs all three; a
// required tool, never optional).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { K8sObject } from './k8s.js';
import { REPO } from './topology.js';

const cacheDir = () => process.env.AGENT_PLATFORM_CACHE_DIR ?? join(homedir(), '.cache', 'agent-platform');

/** $KUBECONFORM, or the installed binary (installing it when missing). */
export function kubeconform(): string {
  if (process.env.KUBECONFORM && existsSync(process.env.KUBECONFORM)) return process.env.KUBECONFORM;
  const out = spawnSync('bash', [join(REPO, 'deploy', 'tools', 'install-kubeconform.sh')], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (out.status !== 0) throw new Error(`install-kubeconform.sh failed: ${out.stderr}`);
  return out.stdout.trim();
}

export const k8sSchemaDir = (): string =>
  process.env.K8S_SCHEMA_DIR ?? join(cacheDir(), 'k8s-schemas', 'v1.32.4');
/** The prometheus-operator CRD schemas (ServiceMonitor, PrometheusRule), beside the built-in ones. */
export const crdSchemaDir = (): string =>
  process.env.K8S_CRD_SCHEMA_DIR ?? join(cacheDir(), 'k8s-schemas', 'prometheus-operator-v0.85.0');

/** The Strimzi CRD schemas (KafkaTopic, KafkaUser; deploy/tools/install-strimzi-crds.sh). */
export const strimziSchemaDir = (): string =>
  process.env.STRIMZI_SCHEMA_DIR ?? join(cacheDir(), 'k8s-schemas', 'strimzi-0.45.0');

/** The KEDA (ScaledObject, TriggerAuthentication), Gateway API (HTTPRoute, Gateway) and Strimzi CRD schemas. */
export const extraCrdSchemaDirs = (): string[] => [
  join(cacheDir(), 'k8s-schemas', 'keda-v2.18.0'),
  join(cacheDir(), 'k8s-schemas', 'gateway-api-v1.4.1'),
  strimziSchemaDir(),
];

export interface KubeconformResult {
  valid: number;
  invalid: number;
  errors: number;
  skipped: number;
  /** One line per resource that did not validate. */
  problems: string[];
}

/**
 * Validates objects strictly (unknown fields refused, every kind must have a schema: a kind with
 * none counts as an error, not a skip).
 */
export function validateWithKubeconform(objects: K8sObject[]): KubeconformResult {
  // JSON documents, not re-serialized YAML: a YAML 1.2 writer leaves `off` unquoted, which
  // kubeconform (and kubectl) read as YAML 1.1, i.e. as the boolean false.
  const input = objects.map((o) => JSON.stringify(o)).join('\n---\n');
  const out = spawnSync(
    kubeconform(),
    [
      '-strict',
      '-summary',
      '-output',
      'json',
      '-schema-location',
      join(k8sSchemaDir(), '{{ .ResourceKind }}{{ .KindSuffix }}.json'),
      '-schema-location',
      join(crdSchemaDir(), '{{ .ResourceKind }}{{ .KindSuffix }}.json'),
      ...extraCrdSchemaDirs().flatMap((dir) => [
        '-schema-location',
        join(dir, '{{ .ResourceKind }}{{ .KindSuffix }}.json'),
      ]),
      '-',
    ],
    { input, encoding: 'utf8', timeout: 120_000 },
  );
  if (out.error) throw out.error;
  const report = JSON.parse(out.stdout) as {
    resources?: { kind: string; name: string; status: string; msg: string }[];
    summary: { valid: number; invalid: number; errors: number; skipped: number };
  };
  return {
    ...report.summary,
    problems: (report.resources ?? [])
      .filter((r) => r.status !== 'statusValid')
      .map((r) => `${r.kind} ${r.name}: ${r.status} ${r.msg}`),
  };
}
