import { fork, spawn, type ChildProcess } from 'node:child_process';
import { openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownSigningKeyEnv } from './trust.js';

/**
 * Where a bench gateway's stdout (its access log, one line per request) goes: a file, as
 * deploy/local/services.sh gives the real gateway, so writing it costs what it costs in production.
 */
export function childLogFile(name: string): string {
  const file = join(tmpdir(), `bench-${name}-${process.pid}.log`);
  // Only what writing it costs matters; the bench removes it when it ends.
  process.on('exit', () => rmSync(file, { force: true }));
  return file;
}

/**
 * Forks a bench server script and waits for its `ready` message. `stdoutFile`: append the child's
 * stdout there (default: this terminal). BENCH_CHILD_CPU_PROF_DIR: every child writes a CPU profile
 * there when it exits (`node --cpu-prof`), for docs/benchmarks.md.
 */
export async function startChild(
  script: string,
  env: Record<string, string>,
  stdoutFile?: string,
): Promise<ChildProcess> {
  const profileDir = process.env.BENCH_CHILD_CPU_PROF_DIR;
  const child = fork(fileURLToPath(new URL(`../${script}`, import.meta.url)), {
    env: { ...process.env, ...env },
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    stdio: ['ignore', stdoutFile ? openSync(stdoutFile, 'a') : 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return child;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Starts a built service (`services/<name>/dist/main.js`) with the bench's environment, the
 * service's own dev signing key and `env`; its stderr is shown, its stdout dropped. `nodeArgs` go
 * before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function spawnBuiltService(
  service: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): ChildProcess {
  const main = fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
  return spawn(process.execPath, [...nodeArgs, main], {
    env: { ...process.env, ...ownSigningKeyEnv(service), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
