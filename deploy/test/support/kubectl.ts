// Finding kubectl and rendering a kustomization with it. kubectl is a required tool of the test
// suite (`./platform tools` builds it from Go modules when the machine has none), never optional.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { K8sObject } from './k8s.js';

const works = (bin: string) =>
  spawnSync(bin, ['version', '--client'], { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** $KUBECTL, kubectl on PATH, or the one `./platform tools` built; undefined when none works. */
export function kubectl(): string | undefined {
  const cache = process.env.AGENT_PLATFORM_CACHE_DIR ?? join(homedir(), '.cache', 'agent-platform');
  const candidates = [process.env.KUBECTL, 'kubectl', join(cache, 'bin', 'kubectl')];
  return candidates.find((c): c is string => !!c && (c === 'kubectl' || existsSync(c)) && works(c));
}

export function renderKustomization(dir: string): K8sObject[] {
  const bin = kubectl();
  if (!bin) throw new Error('kubectl not found: run `./platform tools` (or set KUBECTL)');
  const out = spawnSync(bin, ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
  if (out.status !== 0 || out.stderr) throw new Error(`kubectl kustomize ${dir}: ${out.stderr}`);
  return parseAllDocuments(out.stdout).map((d) => d.toJS() as K8sObject);
}
