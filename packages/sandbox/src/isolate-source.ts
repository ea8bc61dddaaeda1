import ivm from 'isolated-vm';

/**
 * Where a run's isolate comes from. Either way every run gets a FRESH context (its own globals and
 * intrinsics, so `Object.prototype` poisoning cannot reach the next run); the strategies differ in
 * whether the V8 heap around that context is new.
 * - `per-task`: a new isolate per run, disposed at its end.
 * - `pooled` (the default, by the benchmark: README "Isolates"): one isolate reused while runs end
 *   cleanly; a timeout or memory overrun disposes it, and it is recycled after `recycleAfterRuns`
 *   runs. Runs in flight at the same time never share an isolate: the idle one is taken out.
 */
export type IsolateReuse = 'per-task' | 'pooled';

export interface IsolateLease {
  isolate: ivm.Isolate;
  context: ivm.Context;
  /** Hand back the isolate: `clean` is false after a timeout or any doubt; it is then disposed. */
  release(clean: boolean): void;
}

export interface IsolateSource {
  acquire(memoryMb: number): Promise<IsolateLease>;
  close(): void;
}

export function createIsolateSource(reuse: IsolateReuse, recycleAfterRuns = 1_000): IsolateSource {
  return reuse === 'pooled' ? pooledSource(recycleAfterRuns) : perTaskSource();
}

function perTaskSource(): IsolateSource {
  return {
    async acquire(memoryMb) {
      const isolate = new ivm.Isolate({ memoryLimit: memoryMb });
      const context = isolate.createContextSync();
      return {
        isolate,
        context,
        release: () => disposeQuietly(isolate),
      };
    },
    close() {},
  };
}

function pooledSource(recycleAfterRuns: number): IsolateSource {
  let idle: { isolate: ivm.Isolate; memoryMb: number; runs: number } | undefined;
  return {
    async acquire(memoryMb) {
      // Take the idle isolate (if it fits) out of the pool: concurrent runs never share one.
      const taken = idle && idle.memoryMb === memoryMb && !idle.isolate.isDisposed ? idle : undefined;
      if (idle && !taken) disposeQuietly(idle.isolate);
      idle = undefined;
      const entry = taken ?? { isolate: new ivm.Isolate({ memoryLimit: memoryMb }), memoryMb, runs: 0 };
      const context = entry.isolate.createContextSync();
      return {
        isolate: entry.isolate,
        context,
        release(clean) {
          context.release();
          entry.runs += 1;
          if (!clean || idle || entry.runs >= recycleAfterRuns || entry.isolate.isDisposed) {
            disposeQuietly(entry.isolate);
          } else {
            idle = entry;
          }
        },
      };
    },
    close() {
      if (idle) disposeQuietly(idle.isolate);
      idle = undefined;
    },
  };
}

function disposeQuietly(isolate: ivm.Isolate): void {
  if (!isolate.isDisposed) isolate.dispose();
}
