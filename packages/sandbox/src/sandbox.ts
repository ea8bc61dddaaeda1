import { createIsolateSource, type IsolateReuse } from './isolate-source.js';
import { runCodeWith, type RunCodeRequest } from './run-code.js';
import type { RunResult } from './result.js';

/**
 * Chosen by bench/src/sandbox.ts (docs/benchmarks.md, issue 24): a pooled isolate with a fresh
 * context per run is ~2.8x faster at p50 than a new isolate per run (0.9 vs 2.6 ms). README "Isolates".
 */
export const DEFAULT_ISOLATE_REUSE: IsolateReuse = 'pooled';

export interface Sandbox {
  runCode(request: RunCodeRequest): Promise<RunResult>;
  /** Disposes a pooled idle isolate; runs still in flight finish first. */
  close(): void;
}

export function createSandbox(options: { reuse?: IsolateReuse; recycleAfterRuns?: number } = {}): Sandbox {
  const source = createIsolateSource(options.reuse ?? DEFAULT_ISOLATE_REUSE, options.recycleAfterRuns);
  return {
    runCode: (request) => runCodeWith(source, request),
    close: () => source.close(),
  };
}

let defaultSandbox: Sandbox | undefined;

/** Runs `main(inputs)` of `code` in a fresh context with the default isolate strategy. */
export function runCode(request: RunCodeRequest): Promise<RunResult> {
  defaultSandbox ??= createSandbox();
  return defaultSandbox.runCode(request);
}
