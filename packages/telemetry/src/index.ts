export {
  metricsRegistry,
  initMetrics,
  counter,
  gauge,
  histogram,
  secondsSince,
  LATENCY_BUCKETS,
  LONG_BUCKETS,
} from './metrics.js';
export { startMetricsServer, type MetricsServer } from './metrics-server.js';
export { initTracing, type Tracing, type TracingOptions } from './tracing.js';
export {
  SpanKind,
  ROOT_CONTEXT,
  startSpan,
  withSpan,
  runInSpan,
  runInContext,
  activeContext,
  setSpan,
  recordFailure,
  injectTraceContext,
  extractTraceContext,
  linkFromHeaders,
  currentTraceIds,
  validSpanContext,
  currentTraceparent,
  contextFromTraceparent,
  type Span,
  type SpanContext,
  type Context,
  type Attributes,
  type SpanSpec,
} from './spans.js';
export { telemetryEnabled, setTelemetryEnabled, NOOP_SPAN } from './switch.js';
export { startTelemetry, type TelemetryConfig, type RunningTelemetry } from './start-telemetry.js';
export { cachedReading, type CachedReading, type CachedReadingOptions } from './cached-reading.js';
