import {
  activeContext,
  currentTraceIds,
  extractTraceContext,
  ROOT_CONTEXT,
  type Context,
} from '@platform/telemetry';

/**
 * The parent of a run's `workflow.run` span. The run's own trace (`trace_context`, the StartRun
 * call's span) always: a run is claimed fairly, so the claim that takes it may have been prompted
 * by another run's task, by a poll or by another run's end. When the claim happens inside that
 * same trace — StartRun claiming in place, or the consumer span of this run's own `workflow.run`
 * task — the active span is the closer parent and is used, so the trace shows the Kafka hop the
 * run came through. A run stored without one (older rows, a start outside any trace) starts a new
 * trace, sampled like any new root.
 */
export function runParentContext(traceContext: string | null): Context {
  if (!traceContext) return ROOT_CONTEXT;
  const stored = extractTraceContext({ traceparent: traceContext });
  const storedTraceId = traceContext.split('-')[1];
  return currentTraceIds()?.traceId === storedTraceId ? activeContext() : stored;
}
