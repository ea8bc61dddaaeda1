// kube-score, the manifest linter the production overlay must pass with its default checks
// (deploy/tools/install-kube-score.sh builds it from its Go module; a required tool, never optional).
// An exception is an annotation on the object, `kube-score/ignore: <check>,…`, and each ignored
// check carries its reason in `kube-score.agent-platform.io/<check>`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Obj } from './k8s-prod.js';
import { REPO } from './topology.js';

/** $KUBE_SCORE, or the installed binary (building it when missing). */
export function kubeScore(): string {
  if (process.env.KUBE_SCORE && existsSync(process.env.KUBE_SCORE)) return process.env.KUBE_SCORE;
  const out = spawnSync('bash', [join(REPO, 'deploy', 'tools', 'install-kube-score.sh')], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (out.status !== 0) throw new Error(`install-kube-score.sh failed: ${out.stderr}`);
  return out.stdout.trim();
}

/** `kube-score score` with its defaults over the objects: exit status and the findings it prints. */
export function scoreObjects(objects: Obj[]): { status: number | null; findings: string[] } {
  const input = objects.map((o) => JSON.stringify(o)).join('\n---\n');
  const out = spawnSync(kubeScore(), ['score', '--output-format', 'ci', '-'], {
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (out.error) throw out.error;
  const findings = out.stdout.split('\n').filter((line) => /^\[(CRITICAL|WARNING)\]/.test(line));
  return { status: out.status, findings };
}

/** Every ignored check has a reason next to it. */
export function checkIgnoreReasons(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const annotations: Record<string, string> = o.metadata?.annotations ?? {};
    const ignored = (annotations['kube-score/ignore'] ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    for (const check of ignored)
      if (!(annotations[`kube-score.agent-platform.io/${check}`] ?? '').trim())
        problems.push(`${o.kind} ${o.metadata?.name} ignores ${check} without a reason`);
  }
  return problems;
}
