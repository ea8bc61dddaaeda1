import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './free-port.js';
import { waitUntil } from './wait-until.js';

/** Where `./platform` builds Jaeger (v2, from its Go module) once. */
export const JAEGER_BINARY = join(homedir(), '.cache/agent-platform/go-bin/jaeger');

/** One span as Jaeger's query API (`/api/traces`) returns it. */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: 'CHILD_OF' | 'FOLLOWS_FROM'; traceID: string; spanID: string }[];
  tags: { key: string; type: string; value: unknown }[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** A span of a trace with its parent and service resolved (what assertions on a trace's shape want). */
export interface TraceSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  service: string;
  tags: Record<string, unknown>;
}

export interface Jaeger {
  /** OTLP/HTTP base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (spans go to `<it>/v1/traces`). */
  otlpEndpoint: string;
  /** Query API base, e.g. `<it>/api/traces?service=…`. */
  queryUrl: string;
  /** Traces of `service` whose spans carry all `tags` (Jaeger's search), newest first. */
  findTraces(service: string, tags?: Record<string, string>): Promise<JaegerTrace[]>;
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  /** Ids of the traces of `service` holding a span with the tag `key` = `value` (newest first). */
  findTraceIds(service: string, key: string, value: string): Promise<string[]>;
  /** Every span of a trace, flattened (empty when Jaeger has none yet). */
  traceSpans(traceId: string): Promise<TraceSpan[]>;
  stop(): Promise<void>;
}

/** Jaeger v2's own config: OTLP/HTTP in, memory storage, the query API; nothing else listens. */
function config(otlpPort: number, queryPort: number, grpcPort: number): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${queryPort}
    grpc:
      endpoint: 127.0.0.1:${grpcPort}
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlpPort}
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

async function getJson(url: string): Promise<{ data?: JaegerTrace[] | null }> {
  const response = await fetch(url);
  if (response.status === 404) return { data: [] };
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as { data?: JaegerTrace[] | null };
}

/**
 * A private Jaeger (the real one, in-memory) on free loopback ports, for tests that check what a
 * process exports over OTLP. Never the stack's ports.
 */
export async function startJaeger(binary = JAEGER_BINARY): Promise<Jaeger> {
  const [otlpPort, queryPort, grpcPort] = (await freePorts(3)) as [number, number, number];
  const dir = await mkdtemp(join(tmpdir(), 'jaeger-test-'));
  const configFile = join(dir, 'config.yaml');
  await writeFile(configFile, config(otlpPort, queryPort, grpcPort));
  const output: string[] = [];
  const child = spawn(binary, ['--config', `file:${configFile}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`jaeger exited with ${child.exitCode}`);
        const response = await fetch(`${queryUrl}/api/services`).catch(() => undefined);
        return response?.ok ? true : undefined;
      },
      30_000,
      'jaeger did not start',
      100,
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output.join('').slice(-2_000)}`);
  }
  return queryApi(`http://127.0.0.1:${otlpPort}`, queryUrl, stop);
}

/**
 * A real Jaeger to export spans to and read them back: the local stack's when the environment names
 * it (`JAEGER_QUERY_URL` with `OTEL_EXPORTER_OTLP_ENDPOINT`, deploy/local/env.sh), else a private
 * one (`startJaeger`), stopped by `stop`.
 */
export async function startTraceBackend(): Promise<Jaeger> {
  const queryUrl = process.env.JAEGER_QUERY_URL;
  const otlp = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (queryUrl && otlp) return queryApi(otlp, queryUrl, async () => undefined);
  return startJaeger();
}

function flatten(trace: JaegerTrace): TraceSpan[] {
  return trace.spans.map((span) => ({
    traceId: span.traceID,
    spanId: span.spanID,
    parentSpanId: span.references.find((r) => r.refType === 'CHILD_OF')?.spanID,
    name: span.operationName,
    service: trace.processes[span.processID]?.serviceName ?? '',
    tags: Object.fromEntries(span.tags.map((tag) => [tag.key, tag.value])),
  }));
}

function queryApi(otlpEndpoint: string, queryUrl: string, stop: () => Promise<void>): Jaeger {
  const findTraces = async (service: string, tags: Record<string, string> = {}) => {
    const query = new URLSearchParams({ service, limit: '50', lookback: '1h' });
    if (Object.keys(tags).length > 0) query.set('tags', JSON.stringify(tags));
    return (await getJson(`${queryUrl}/api/traces?${query}`)).data ?? [];
  };
  const trace = async (traceId: string) => (await getJson(`${queryUrl}/api/traces/${traceId}`)).data?.[0];
  return {
    otlpEndpoint,
    queryUrl,
    findTraces,
    trace,
    async findTraceIds(service, key, value) {
      return (await findTraces(service, { [key]: value })).map((t) => t.traceID);
    },
    async traceSpans(traceId) {
      const found = await trace(traceId);
      return found ? flatten(found) : [];
    },
    stop,
  };
}
