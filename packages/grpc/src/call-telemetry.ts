import { status as GrpcStatus, type Metadata } from '@grpc/grpc-js';
import {
  extractTraceContext,
  histogram,
  injectTraceContext,
  NOOP_SPAN,
  recordFailure,
  runInSpan,
  secondsSince,
  SpanKind,
  startSpan,
  telemetryEnabled,
  type Context,
  type Span,
} from '@platform/telemetry';
import { performance } from 'node:perf_hooks';

/**
 * RED of every gRPC method on both sides, by service, method and gRPC status name. Bounded: the
 * methods are the protos' (docs/operations.md).
 */
const serverHandling = histogram({
  name: 'grpc_server_handling_seconds',
  help: 'gRPC calls served: credentials check to the last message',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
});
const clientHandling = histogram({
  name: 'grpc_client_handling_seconds',
  help: 'gRPC calls made: from the call to its answer (streams: to their end)',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
});

const TRACE_KEYS = ['traceparent', 'tracestate'] as const;

/**
 * The codes that mean a server fault (OpenTelemetry's gRPC conventions): a served call that ends
 * with another code (NOT_FOUND, INVALID_ARGUMENT…) answered the caller as designed, so its span is
 * not an error. A client span is an error for any code but OK.
 */
const SERVER_FAULTS: ReadonlySet<number> = new Set([
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.UNIMPLEMENTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
]);

function codeName(code: number | undefined): string {
  return GrpcStatus[code ?? GrpcStatus.OK] ?? 'UNKNOWN';
}

const labelsOf = new Map<string, { service: string; method: string }>();

/**
 * `pkg.Service/createThing` → its two labels, the method as the proto spells it (`CreateThing`;
 * ts-proto's handler keys are lower camel case). Cached: the set of methods is closed.
 */
function splitMethod(fullMethod: string): { service: string; method: string } {
  let labels = labelsOf.get(fullMethod);
  if (!labels) {
    const slash = fullMethod.lastIndexOf('/');
    const method = fullMethod.slice(slash + 1);
    labels = {
      service: fullMethod.slice(0, slash),
      method: method.charAt(0).toUpperCase() + method.slice(1),
    };
    labelsOf.set(fullMethod, labels);
  }
  return labels;
}

export interface TrackedCall {
  span: Span;
  /** Runs `fn` with the call's span active. */
  run<T>(fn: () => T): T;
  /** Records the outcome (a gRPC status code) and ends the span. */
  finish(code: number | undefined, error?: unknown): void;
}

function tracked(
  fullMethod: string,
  kind: SpanKind.SERVER | SpanKind.CLIENT,
  parent: Context | undefined,
  record: (labels: { grpc_service: string; grpc_method: string; grpc_code: string }, seconds: number) => void,
): TrackedCall {
  const started = performance.now();
  const { service, method } = splitMethod(fullMethod);
  const span = startSpan(`${service}/${method}`, {
    kind,
    parent,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
  });
  let finished = false;
  return {
    span,
    run: (fn) => runInSpan(span, fn, parent),
    finish(code, error) {
      if (finished) return;
      finished = true;
      record(
        { grpc_service: service, grpc_method: method, grpc_code: codeName(code) },
        secondsSince(started),
      );
      span.setAttribute('rpc.grpc.status_code', code ?? GrpcStatus.OK);
      const failed = kind === SpanKind.SERVER ? SERVER_FAULTS.has(code ?? 0) : (code ?? 0) !== GrpcStatus.OK;
      if (failed) recordFailure(span, error ?? new Error(codeName(code)));
      span.end();
    },
  };
}

/** TELEMETRY_ENABLED=false: a call that records nothing (no span, no histogram, no metadata). */
const UNTRACKED: TrackedCall = { span: NOOP_SPAN, run: (fn) => fn(), finish: () => undefined };

/** A served call: its span continues the caller's trace (`traceparent` metadata). */
export function trackServerCall(fullMethod: string, metadata: Metadata): TrackedCall {
  if (!telemetryEnabled()) return UNTRACKED;
  const carrier: Record<string, string | undefined> = {};
  for (const key of TRACE_KEYS) {
    const value = metadata.get(key)[0];
    if (typeof value === 'string') carrier[key] = value;
  }
  return tracked(fullMethod, SpanKind.SERVER, extractTraceContext(carrier), (labels, seconds) =>
    serverHandling.observe(labels, seconds),
  );
}

/** A call made: a client span whose context travels in the outgoing metadata. */
export function trackClientCall(service: string, method: string, metadata: Metadata): TrackedCall {
  if (!telemetryEnabled()) return UNTRACKED;
  const call = tracked(`${service}/${method}`, SpanKind.CLIENT, undefined, (labels, seconds) =>
    clientHandling.observe(labels, seconds),
  );
  const carrier: Record<string, string> = {};
  call.run(() => injectTraceContext(carrier));
  for (const [key, value] of Object.entries(carrier)) metadata.set(key, value);
  return call;
}
