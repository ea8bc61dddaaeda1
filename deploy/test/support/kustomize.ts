// Reading the kustomizations under deploy/k8s without kubectl: which folders have one, that
// everything they list exists and parses, and the objects they produce (resources + generated
// ConfigMaps, without patches).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import type { K8sObject } from './k8s.js';
import type { SecretExample } from './k8s-security.js';
import { read, yamlDocuments } from './parse.js';
import { K8S, REPO } from './topology.js';

interface Kustomization {
  resources?: string[];
  components?: string[];
  patches?: { path?: string; patch?: string; target?: unknown }[];
  patchesStrategicMerge?: string[];
  configMapGenerator?: {
    name?: string;
    envs?: string[];
    files?: string[];
    literals?: string[];
    behavior?: string;
  }[];
  secretGenerator?: { name?: string; envs?: string[]; files?: string[]; literals?: string[] }[];
}

/** The folders whose kustomization renders on its own: Components (kind: Component) only render
 *  inside an overlay, so they are left out (findComponentDirs lists them). */
export function findKustomizationDirs(dir: string): string[] {
  return findAllKustomizationDirs(dir).filter((d) => !isComponent(d));
}
export const findComponentDirs = (dir: string): string[] => findAllKustomizationDirs(dir).filter(isComponent);
const isComponent = (dir: string) =>
  (parse(read(join(dir, 'kustomization.yaml'))) as { kind?: string }).kind === 'Component';

function findAllKustomizationDirs(dir: string): string[] {
  const found = existsSync(join(dir, 'kustomization.yaml')) ? [dir] : [];
  for (const entry of readdirSync(dir)) {
    const child = join(dir, entry);
    if (statSync(child).isDirectory()) found.push(...findAllKustomizationDirs(child));
  }
  return found;
}

export const readKustomization = (dir: string): Kustomization =>
  parse(read(join(dir, 'kustomization.yaml'))) as Kustomization;

function parseEnvLines(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq > 0) out[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return out;
}

/** Structural check of one kustomization: everything it lists exists and parses. */
export function checkKustomizationFiles(dir: string): string[] {
  const problems: string[] = [];
  const where = relative(REPO, join(dir, 'kustomization.yaml'));
  let k: Kustomization;
  try {
    k = readKustomization(dir);
  } catch (err) {
    return [`${where} does not parse: ${String(err)}`];
  }
  const referenced = [
    ...(k.resources ?? []),
    ...(k.components ?? []),
    ...(k.patchesStrategicMerge ?? []),
    ...(k.patches ?? []).flatMap((p) => (p.path ? [p.path] : [])),
  ];
  if ((k.resources ?? []).length === 0) problems.push(`${where} lists no resources`);
  for (const ref of referenced) {
    const path = resolve(dir, ref);
    if (!existsSync(path)) {
      problems.push(`${where}: ${ref} does not exist`);
    } else if (statSync(path).isDirectory()) {
      if (!existsSync(join(path, 'kustomization.yaml')))
        problems.push(`${where}: ${ref} has no kustomization.yaml`);
    } else {
      try {
        const docs = yamlDocuments(path);
        if (docs.length === 0) problems.push(`${where}: ${ref} holds no document`);
        for (const doc of docs as K8sObject[]) {
          if (!doc.apiVersion || !doc.kind || !doc.metadata?.name) {
            problems.push(`${where}: ${ref} has a document without apiVersion/kind/metadata.name`);
          }
        }
      } catch (err) {
        problems.push(`${where}: ${ref} does not parse: ${String(err)}`);
      }
    }
  }
  for (const gen of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    for (const file of [...(gen.envs ?? []), ...(gen.files ?? []).map((f) => f.split('=').at(-1) ?? f)]) {
      if (!existsSync(resolve(dir, file)))
        problems.push(`${where}: generator ${gen.name} file ${file} does not exist`);
    }
  }
  // Every manifest in the folder is either listed or the deliberately unlisted secret example.
  for (const entry of readdirSync(dir)) {
    if (!/\.ya?ml$/.test(entry) || entry === 'kustomization.yaml' || entry === 'secret.example.yaml')
      continue;
    if (!referenced.includes(entry)) problems.push(`${where} does not list ${entry}`);
  }
  if ((k.resources ?? []).includes('secret.example.yaml'))
    problems.push(`${where} must not list secret.example.yaml`);
  return problems;
}

/** The objects a kustomization produces, without patches: resources (recursively) and generated
 *  ConfigMaps under their plain names. The rendered check covers patches and name hashes. */
export function kustomizationObjects(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const objects: K8sObject[] = [];
  for (const ref of k.resources ?? []) {
    const path = resolve(dir, ref);
    if (statSync(path).isDirectory()) objects.push(...kustomizationObjects(path));
    else objects.push(...(yamlDocuments(path) as K8sObject[]));
  }
  for (const gen of k.configMapGenerator ?? []) {
    const data = {
      ...Object.assign({}, ...(gen.envs ?? []).map((f) => parseEnvLines(read(resolve(dir, f)).split('\n')))),
      ...parseEnvLines(gen.literals ?? []),
    } as Record<string, string>;
    const existing = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === gen.name);
    if (existing && gen.behavior === 'merge') existing.data = { ...existing.data, ...data };
    else objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: gen.name }, data });
  }
  return objects;
}

export const SECRET_EXAMPLE = join(K8S, 'base', 'secret.example.yaml');

/** The Secrets of secret.example.yaml: their keys and declared audience (annotation). */
export function secretExamples(): SecretExample[] {
  return (
    yamlDocuments(SECRET_EXAMPLE) as (K8sObject & { metadata?: { annotations?: Record<string, string> } })[]
  )
    .filter((o) => o.kind === 'Secret')
    .map((o) => ({
      name: o.metadata?.name ?? '',
      keys: new Set(Object.keys({ ...o.data, ...o.stringData })),
      audience: (o.metadata?.annotations?.['agent-platform.io/audience'] ?? '').split(',').filter(Boolean),
    }));
}

export const secretKeysByName = (examples: SecretExample[]): Map<string, Set<string>> =>
  new Map(examples.map((e) => [e.name, e.keys]));
