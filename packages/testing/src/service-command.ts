import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CommandResult {
  /** Exit code (null when killed by a signal). */
  code: number | null;
  /** stdout and stderr together, in arrival order. */
  output: string;
}

/**
 * Runs the BUILT `services/<service>/dist/main.js <args…>` (a one-shot command as a Job runs it)
 * with exactly `env` plus PATH: nothing of the test's environment leaks in, so a command that needs
 * a variable it was not given fails here as it would in its Job. Resolves on exit.
 */
export function runServiceCommand(
  service: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CommandResult> {
  const child = spawn(process.execPath, [`${ROOT}services/${service}/dist/main.js`, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${service} ${args.join(' ')} ran longer than ${timeoutMs} ms:\n${chunks.join('')}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: chunks.join('') });
    });
  });
}
