import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ownSigningKeyEnv } from './trust.js';

/** Forks a bench server script and waits for its `ready` message. */
export async function startChild(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL(`../${script}`, import.meta.url)), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
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
