import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export type { ReadableSpan };

export interface MemorySpans {
  /** The spans ended so far, oldest first. */
  finished(): ReadableSpan[];
  reset(): void;
}

let installed: MemorySpans | undefined;

/**
 * Records every span of this process in memory (all sampled): for tests that check the spans code
 * makes without a trace backend. Installed once per process; later calls share it.
 */
export function recordSpansInMemory(): MemorySpans {
  if (installed) return installed;
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }),
  );
  installed = {
    finished: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
  };
  return installed;
}
