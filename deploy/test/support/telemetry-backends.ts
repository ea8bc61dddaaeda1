// The local stack's Prometheus and Jaeger (deploy/local/stack.sh) and the running services, as the
// telemetry proof tests see them: URLs from deploy/local/env.sh, small clients for the Prometheus
// HTTP API and Jaeger's query API, and the gateway's access log.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './topology.js';

export const PROMETHEUS_URL = process.env.PROMETHEUS_URL ?? 'http://127.0.0.1:59090';
export const JAEGER_QUERY_URL = process.env.JAEGER_QUERY_URL ?? 'http://127.0.0.1:56686';
export const GATEWAY_URL = process.env.GATEWAY_URL ?? `http://127.0.0.1:${process.env.HTTP_PORT ?? '8080'}`;
/** Where deploy/local/services.sh writes one log per service. */
export const SERVICES_LOG_DIR = process.env.SERVICES_LOG_DIR ?? join(REPO, '.stack', 'logs');

/** Polls `probe` every 250 ms until it returns a value (not undefined/false); fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// --- Prometheus -------------------------------------------------------------------------------

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** An instant query over the HTTP API (`/api/v1/query`); the vector it returns. */
export async function promQuery(expr: string): Promise<Sample[]> {
  const response = await fetch(`${PROMETHEUS_URL}/api/v1/query?${new URLSearchParams({ query: expr })}`);
  const body = (await response.json()) as { status: string; error?: string; data?: { result: Sample[] } };
  if (body.status !== 'success')
    throw new Error(`prometheus query ${expr} failed: ${body.error ?? response.status}`);
  return body.data?.result ?? [];
}

/** The value of a query that yields at most one sample (a `sum(...)`); undefined when empty. */
export async function promValue(expr: string): Promise<number | undefined> {
  const [sample] = await promQuery(expr);
  return sample ? Number(sample.value[1]) : undefined;
}

/**
 * Waits until Prometheus has scraped `service`'s process after this call began, so that what a
 * test did before the call is in the answers that follow.
 */
export async function nextScrape(service: string): Promise<void> {
  const since = Date.now() / 1000;
  await waitFor(
    async () => ((await promValue(`max(timestamp(up{instance="${service}"}))`)) ?? 0) > since,
    15_000,
    `a scrape of ${service} by ${PROMETHEUS_URL}`,
  );
}

// --- Jaeger -----------------------------------------------------------------------------------

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; value: unknown }>;
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** The spans Jaeger holds for one trace id (the query service's `/api/traces/{id}`); [] when none. */
export async function jaegerTrace(traceId: string): Promise<JaegerTrace | undefined> {
  const response = await fetch(`${JAEGER_QUERY_URL}/api/traces/${traceId}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`jaeger /api/traces/${traceId}: ${response.status}`);
  const body = (await response.json()) as { data?: JaegerTrace[] };
  return body.data?.[0];
}

/** Traces of `service` whose spans carry the tag `key=value`, started in the last `lookback`. */
export async function jaegerFind(
  service: string,
  key: string,
  value: string,
  lookback = '10m',
): Promise<JaegerTrace[]> {
  const query = new URLSearchParams({
    service,
    tags: JSON.stringify({ [key]: value }),
    lookback,
    limit: '20',
  });
  const response = await fetch(`${JAEGER_QUERY_URL}/api/traces?${query}`);
  if (!response.ok) throw new Error(`jaeger /api/traces?${query}: ${response.status}`);
  return ((await response.json()) as { data?: JaegerTrace[] }).data ?? [];
}

export const serviceOf = (trace: JaegerTrace, span: JaegerSpan): string | undefined =>
  trace.processes[span.processID]?.serviceName;
export const tagOf = (span: JaegerSpan, key: string): unknown => span.tags.find((t) => t.key === key)?.value;
export const parentOf = (span: JaegerSpan): string | undefined =>
  span.references.find((r) => r.refType === 'CHILD_OF')?.spanID;

// --- the gateway's access log -----------------------------------------------------------------

export interface AccessLogLine {
  request_id: string;
  trace_id?: string;
  span_id?: string;
  msg: string;
  route?: string;
  status: number;
}

/** The last `bytes` of a file (a service log grows for as long as the stack lives). */
function tail(file: string, bytes: number): string {
  const size = statSync(file).size;
  const length = Math.min(size, bytes);
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** The gateway's access-log line (`request` / `request failed`) of a request made just now. */
export function accessLogLine(requestId: string): AccessLogLine | undefined {
  const file = join(SERVICES_LOG_DIR, 'gateway.log');
  if (!existsSync(file)) return undefined;
  for (const text of tail(file, 4 << 20)
    .split('\n')
    .reverse()) {
    if (!text.includes(requestId)) continue;
    try {
      const line = JSON.parse(text) as AccessLogLine;
      if (line.request_id === requestId && (line.msg === 'request' || line.msg === 'request failed'))
        return line;
    } catch {
      // a partly written last line
    }
  }
  return undefined;
}
