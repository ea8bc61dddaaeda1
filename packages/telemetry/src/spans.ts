import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

export { SpanKind, ROOT_CONTEXT, type Span, type SpanContext, type Context, type Attributes };

const tracer = trace.getTracer('agent-platform');

export interface SpanSpec {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; defaults to the active context. */
  parent?: Context;
  /** Spans this one relates to without being their child (e.g. the messages of a batch). */
  links?: Link[];
}

/** Marks a span failed with the error's name and message (never a stack: spans leave the process). */
export function recordFailure(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
}

/** Starts a span that is NOT made active; the caller ends it (for callbacks and streams). */
export function startSpan(name: string, spec: SpanSpec = {}): Span {
  return tracer.startSpan(
    name,
    { kind: spec.kind ?? SpanKind.INTERNAL, attributes: spec.attributes, links: spec.links },
    spec.parent ?? context.active(),
  );
}

/** Runs `fn` inside a new active span, which ends (failed when `fn` throws) when `fn` settles. */
export async function withSpan<T>(name: string, spec: SpanSpec, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = spec.parent ?? context.active();
  const span = startSpan(name, { ...spec, parent });
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Runs `fn` with `span` as the active span (its logs and outgoing calls become its children). */
export function runInSpan<T>(span: Span, fn: () => T, parent: Context = context.active()): T {
  return context.with(trace.setSpan(parent, span), fn);
}

/** Runs `fn` under `parent` (e.g. a context extracted from message headers). */
export function runInContext<T>(parent: Context, fn: () => T): T {
  return context.with(parent, fn);
}

/** `parent` with `span` as its active span (e.g. to inject a span's context that is not active). */
export function setSpan(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

/** The active context (to carry into work that continues later, e.g. a queued callback). */
export function activeContext(): Context {
  return context.active();
}

/** Writes `traceparent` / `tracestate` of the active (or given) context into `carrier`. */
export function injectTraceContext(carrier: Record<string, string>, from: Context = context.active()): void {
  propagation.inject(from, carrier);
}

/** The context a carrier's `traceparent` names (the root context when it has none or a broken one). */
export function extractTraceContext(carrier: Record<string, string | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** A link to the span a carrier's `traceparent` names, or undefined when it names none. */
export function linkFromHeaders(carrier: Record<string, string | undefined>): Link | undefined {
  const spanContext = trace.getSpanContext(extractTraceContext(carrier));
  return spanContext && trace.isSpanContextValid(spanContext) ? { context: spanContext } : undefined;
}

/** The span context `from` (default: the active context) holds, when valid; else undefined. */
export function validSpanContext(from: Context = context.active()): SpanContext | undefined {
  const spanContext = trace.getSpanContext(from);
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The W3C `traceparent` of the active (or given) context, to store beside work that continues
 * later in another process (an outbox row); undefined outside a trace.
 */
export function currentTraceparent(from: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier.traceparent;
}

/** The context a stored `traceparent` names (the root context when null or broken). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? extractTraceContext({ traceparent }) : ROOT_CONTEXT;
}

/** `trace_id` / `span_id` of the active span, for logs and API answers; undefined outside a trace. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
