import { INVALID_SPAN_CONTEXT, trace, type Span } from '@opentelemetry/api';

let enabled = true;

/**
 * Whether this process records telemetry (`TELEMETRY_ENABLED`, on unless set false; read once by
 * `startTelemetry`). The hot paths (gateway requests, gRPC calls, Kafka messages) check it before
 * any span or histogram work, so "off" costs one function call per request — the baseline of the
 * overhead bench (bench/src/telemetry-overhead.ts).
 */
export function telemetryEnabled(): boolean {
  return enabled;
}

/** Turns telemetry off (or on again) for this process; `startTelemetry` calls it from config. */
export function setTelemetryEnabled(on: boolean): void {
  enabled = on;
}

/** A span that records nothing and carries no trace ids: what a hot path hands on when off. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
