import type ivm from 'isolated-vm';
import { MAX_CODE_BYTES, resolveLimits, type RunLimits } from './limits.js';
import { guestPrelude } from './guest-prelude.js';
import type { IsolateLease, IsolateSource } from './isolate-source.js';
import { readLogs } from './read-logs.js';
import { decodeEnvelope, encodeInputs } from './crossing.js';
import { NO_LOGS, type CapturedLogs, type FailureReason, type RunResult } from './result.js';

export interface RunCodeRequest extends Partial<RunLimits> {
  /** JavaScript source defining a top-level `function main(inputs)` (may be async). */
  code: string;
  /** Copied into the isolate as JSON; must be a JSON object. */
  inputs: Record<string, unknown>;
}

/** The file name the user's frames carry in messages (`code.js:3:7`), never a host path. */
export const USER_SCRIPT_NAME = 'code.js';

/**
 * Host-side wall clock beyond the isolate's own CPU timeout: catches a `main` that awaits a promise
 * that never settles (there are no timers inside, so nothing could ever settle it).
 */
const WALL_CLOCK_GRACE_MS = 50;

export async function runCodeWith(source: IsolateSource, request: RunCodeRequest): Promise<RunResult> {
  const startedAt = performance.now();
  const limits = resolveLimits(request);
  const elapsed = () => Math.round((performance.now() - startedAt) * 100) / 100;
  const fail = (reason: FailureReason, message: string, logs: CapturedLogs = NO_LOGS): RunResult => ({
    ok: false,
    reason,
    message,
    logs,
    durationMs: elapsed(),
  });

  if (Buffer.byteLength(request.code, 'utf8') > MAX_CODE_BYTES) {
    return fail('input_too_large', `the code is larger than ${MAX_CODE_BYTES} bytes`);
  }
  const inputs = encodeInputs(request.inputs, limits.maxInputBytes);
  if (!inputs.ok) return fail(inputs.reason, inputs.message);

  const lease = await source.acquire(limits.memoryMb);
  let wallClockExpired = false;
  const wallClock = setTimeout(() => {
    if (lease.isolate.isDisposed) return; // the memory limit got there first
    wallClockExpired = true;
    lease.isolate.dispose(); // rejects whatever is pending inside; the host goes on
  }, limits.timeoutMs + WALL_CLOCK_GRACE_MS);
  let clean = false;
  try {
    const outcome = await runInLease(lease, request.code, inputs.json, limits, startedAt);
    const logs = lease.isolate.isDisposed ? NO_LOGS : await readLogs(lease, limits);
    if (outcome.kind === 'ok') {
      clean = true;
      return { ok: true, output: outcome.output, logs, durationMs: elapsed() };
    }
    // A timed-out or overrun isolate is never handed to another run, whatever state it is in.
    clean = outcome.kind !== 'timeout' && outcome.kind !== 'memory_limit';
    return fail(outcome.kind, outcome.message, logs);
  } catch (error) {
    if (wallClockExpired) return fail('timeout', `the code did not finish within ${limits.timeoutMs} ms`);
    if (lease.isolate.isDisposed) {
      return fail('memory_limit', `the code used more than ${limits.memoryMb} MiB of memory`);
    }
    throw error; // a host-side fault, not the user's: let the caller see it
  } finally {
    clearTimeout(wallClock);
    lease.release(clean && !wallClockExpired);
  }
}

type Outcome =
  | { kind: 'ok'; output: import('./result.js').JsonObject }
  | { kind: Exclude<FailureReason, 'input_too_large'>; message: string };

async function runInLease(
  lease: IsolateLease,
  code: string,
  inputsJson: string,
  limits: RunLimits,
  startedAt: number,
): Promise<Outcome> {
  const { isolate, context } = lease;
  const remaining = () => Math.max(1, Math.ceil(limits.timeoutMs - (performance.now() - startedAt)));
  // Every step but the call of `main` is synchronous: each async isolated-vm call is a hop to the
  // isolate's thread and back (~0.1-0.2 ms), and these steps are bounded (the prelude and compiling
  // are ours or only parse; the top level runs under the time limit). A run blocks its host thread
  // for at most its time limit: in the sandbox worker that host is a child process of its own.
  context.evalSync(guestPrelude(limits.maxLogBytes, limits.maxLogLines), { timeout: 1_000 });
  // Take the entry point before user code runs: user code cannot swap it afterwards.
  const call = context.evalSync('__sandbox.call', { reference: true }) as ivm.Reference<
    (inputsJson: string) => Promise<string>
  >;

  let script: ivm.Script;
  try {
    script = isolate.compileScriptSync(code, { filename: USER_SCRIPT_NAME });
  } catch (error) {
    return { kind: 'syntax_error', message: userMessage(error) };
  }
  try {
    script.runSync(context, { timeout: remaining() });
    const envelope = await call.apply(undefined, [inputsJson], {
      arguments: { copy: true },
      result: { promise: true, copy: true },
      timeout: remaining(),
    });
    return namedMemoryOverrun(decodeEnvelope(envelope, limits.maxOutputBytes), limits);
  } catch (error) {
    if (isolate.isDisposed) throw error; // memory overrun or wall clock: the caller names it
    if (isTimeout(error))
      return { kind: 'timeout', message: `the code ran longer than ${limits.timeoutMs} ms` };
    return namedMemoryOverrun({ kind: 'thrown', message: userMessage(error) }, limits);
  } finally {
    script.release();
  }
}

/** A typed array past the isolate's allocator cap surfaces as a RangeError: it is the memory limit. */
function namedMemoryOverrun(outcome: Outcome, limits: RunLimits): Outcome {
  if (outcome.kind === 'thrown' && /Array buffer allocation failed/.test(outcome.message)) {
    return { kind: 'memory_limit', message: `the code used more than ${limits.memoryMb} MiB of memory` };
  }
  return outcome;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && /timed out/i.test(error.message);
}

/** `Name: message` of an error raised in the isolate; its stack (with host frames) is dropped. */
function userMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
