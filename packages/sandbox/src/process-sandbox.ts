import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveLimits } from './limits.js';
import type { RunCodeRequest } from './run-code.js';
import { NO_LOGS, type RunResult } from './result.js';
import type { Sandbox } from './sandbox.js';

/** Past the run's own time limit, how long the parent waits before it SIGKILLs the child. */
const HARD_KILL_GRACE_MS = 1_000;
/** How often the parent reads a busy child's resident memory. */
const RSS_CHECK_MS = 50;
/**
 * A child's resident memory past (isolate heap limit × 2 + this) means the code grows memory where
 * V8 does not stop it (a builtin such as `Array.prototype.fill` over 2^30 elements runs to a
 * process-wide OOM ~13 s later): the child is killed at once and the run fails `memory_limit`.
 * An idle child holds ~60 MiB.
 */
const RSS_BASELINE_MB = 128;
const PAGE_BYTES = 4096;

/** Resident bytes of `pid` (Linux /proc; elsewhere undefined: only the time limit applies). */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : undefined;
  } catch {
    return undefined;
  }
}

interface Pending {
  resolve(result: RunResult): void;
  reject(error: Error): void;
  startedAt: number;
  timeoutMs: number;
  timer: NodeJS.Timeout;
  memoryWatch: NodeJS.Timeout;
  killedFor: 'time' | 'memory' | undefined;
  memoryMb: number;
}

/**
 * A sandbox whose isolates live in a child process (forked with --no-node-snapshot), one run at a
 * time. Some V8 failures abort the process that hosts the isolate (README "Known limits"); here they
 * kill the child: the run fails with `memory_limit`, the next run forks a new child. A builtin that
 * ignores the isolate's limits is ended by SIGKILL: after the time limit + 1 s (`timeout`), or as
 * soon as the child's resident memory passes twice the heap limit + 128 MiB (`memory_limit`).
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
      // Defense in depth: the process that hosts user code inherits none of the parent's
      // environment (the sandbox worker's Kafka credentials), though no isolate can read it.
      env: {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    started.on('message', (message: { id: number; result?: RunResult; error?: string }) => {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      clearInterval(entry.memoryWatch);
      if (message.result) entry.resolve(message.result);
      else entry.reject(new Error(`sandbox child: ${message.error ?? 'no result'}`));
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      for (const [id, entry] of pending) {
        pending.delete(id);
        clearTimeout(entry.timer);
        clearInterval(entry.memoryWatch);
        const durationMs = Math.round(performance.now() - entry.startedAt);
        entry.resolve(
          entry.killedFor === 'time'
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
                message:
                  entry.killedFor === 'memory'
                    ? `the code used far more than its ${entry.memoryMb} MiB memory limit; its sandbox process was stopped`
                    : `the code exhausted the sandbox process (${signal ?? `exit ${code}`}); it was restarted`,
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
      const { timeoutMs, memoryMb } = resolveLimits(request);
      const kill = (reason: 'time' | 'memory') => {
        entry.killedFor ??= reason;
        running.kill('SIGKILL');
      };
      const rssLimit = (memoryMb * 2 + RSS_BASELINE_MB) * 1024 * 1024;
      const entry: Pending = {
        resolve,
        reject,
        startedAt: performance.now(),
        timeoutMs,
        memoryMb,
        killedFor: undefined,
        timer: setTimeout(() => kill('time'), timeoutMs + HARD_KILL_GRACE_MS),
        memoryWatch: setInterval(() => {
          if ((residentBytes(running.pid) ?? 0) > rssLimit) kill('memory');
        }, RSS_CHECK_MS),
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
