/**
 * Default and maximum limits of one sandbox run. The caller (the code node) may lower or raise a
 * limit within these bounds; `resolveLimits` clamps whatever it is given.
 */

/** Isolate heap limit, MiB (V8's own limit: an overrun disposes the isolate, never the host). */
export const DEFAULT_MEMORY_MB = 64;
/** Smallest heap isolated-vm accepts (it refuses less than 8 MiB). */
export const MIN_MEMORY_MB = 8;
export const MAX_MEMORY_MB = 256;

/** Time limit of one run (compile + top level + `main` + its awaited promise), milliseconds. */
export const DEFAULT_TIMEOUT_MS = 2_000;
export const MAX_TIMEOUT_MS = 30_000;

/** Inputs and outputs cross as JSON copies; the same 1 MiB cap as other node outputs. */
export const DEFAULT_MAX_INPUT_BYTES = 1_048_576;
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/** Captured console output: a byte cap (UTF-8) and a line cap; past either, logs say "truncated". */
export const DEFAULT_MAX_LOG_BYTES = 65_536;
export const DEFAULT_MAX_LOG_LINES = 1_000;

/** Largest accepted source, checked at save time by `checkCode` and again by `runCode`. */
export const MAX_CODE_BYTES = 65_536;

export interface RunLimits {
  timeoutMs: number;
  memoryMb: number;
  maxInputBytes: number;
  maxOutputBytes: number;
  maxLogBytes: number;
  maxLogLines: number;
}

export function resolveLimits(requested: Partial<RunLimits>): RunLimits {
  return {
    timeoutMs: clamp(requested.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS),
    memoryMb: clamp(requested.memoryMb ?? DEFAULT_MEMORY_MB, MIN_MEMORY_MB, MAX_MEMORY_MB),
    maxInputBytes: clamp(requested.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES, 2, Number.MAX_SAFE_INTEGER),
    maxOutputBytes: clamp(requested.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, 2, Number.MAX_SAFE_INTEGER),
    maxLogBytes: clamp(requested.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES, 0, Number.MAX_SAFE_INTEGER),
    maxLogLines: clamp(requested.maxLogLines ?? DEFAULT_MAX_LOG_LINES, 0, Number.MAX_SAFE_INTEGER),
  };
}

function clamp(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return max;
  return Math.min(max, Math.max(min, Math.floor(value)));
}
