import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolveLimits } from './limits.js';
import type { RunCodeRequest } from './run-code.js';
import { NO_LOGS, type RunResult } from './result.js';
import type { Sandbox } from './sandbox.js';

/** Past the run's own time limit, how long the parent waits before it SIGKILLs the child. */
const HARD_KILL_GRACE_MS = 1_000;

interface Pending {
  resolve(result: RunResult): void;
  reject(error: Error): void;
  startedAt: number;
  timeoutMs: number;
  timer: NodeJS.Timeout;
  killedForTime: boolean;
}

/**
 * A sandbox whose isolates live in a child process (forked with --no-node-snapshot), one run at a
 * time. Some V8 failures abort the process that hosts the isolate (README "Known limits"); here they
 * kill the child: the run fails with `memory_limit`, the next run forks a new child. A builtin that
 * ignores the isolate's time limit is ended by SIGKILL after the limit + 1 s (`timeout`).
 */
export function createProcessSandbox(): Sandbox {
  // Under vitest this module is the .ts source; the child always runs the built JavaScript.
  const childUrl = import.meta.url.endsWith('.ts') ? '../dist/child-main.js' : './child-main.js';
  const childPath = fileURLToPath(new URL(childUrl, import.meta.url));
  let child: ChildProcess | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();
  let queue: Promise<unknown> = Promise.resolve();

  const spawnChild = (): ChildProcess => {
    const started = fork(childPath, [], {
      execArgv: ['--no-node-snapshot'],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    started.on('message', (message: { id: number; result?: RunResult; error?: string }) => {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      if (message.result) entry.resolve(message.result);
      else entry.reject(new Error(`sandbox child: ${message.error ?? 'no result'}`));
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      for (const [id, entry] of pending) {
        pending.delete(id);
        clearTimeout(entry.timer);
        const durationMs = Math.round(performance.now() - entry.startedAt);
        entry.resolve(
          entry.killedForTime
            ? {
                ok: false,
                reason: 'timeout',
                message: `the code did not finish within ${entry.timeoutMs} ms`,
                logs: NO_LOGS,
                durationMs,
              }
            : {
                ok: false,
                reason: 'memory_limit',
                message: `the code exhausted the sandbox process (${signal ?? `exit ${code}`}); it was restarted`,
                logs: NO_LOGS,
                durationMs,
              },
        );
      }
    });
    return started;
  };

  const runOne = (request: RunCodeRequest): Promise<RunResult> =>
    new Promise<RunResult>((resolve, reject) => {
      const running = (child ??= spawnChild());
      const id = nextId++;
      const { timeoutMs } = resolveLimits(request);
      const entry: Pending = {
        resolve,
        reject,
        startedAt: performance.now(),
        timeoutMs,
        killedForTime: false,
        timer: setTimeout(() => {
          entry.killedForTime = true;
          running.kill('SIGKILL');
        }, timeoutMs + HARD_KILL_GRACE_MS),
      };
      pending.set(id, entry);
      running.send({ id, request });
    });

  return {
    runCode(request) {
      const result = queue.then(() => runOne(request));
      queue = result.catch(() => undefined);
      return result;
    },
    close() {
      child?.kill('SIGKILL');
      child = undefined;
    },
  };
}
