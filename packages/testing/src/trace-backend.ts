import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { waitUntil } from './wait-until.js';

/** A Jaeger span as its query API (`/api/traces/{id}`) answers it, with its service resolved. */
export interface JaegerSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  service: string;
  tags: Record<string, unknown>;
}

export interface TraceBackend {
  /** OTLP/HTTP base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  otlpEndpoint: string;
  /** Base URL of Jaeger's query API. */
  queryUrl: string;
  /** Ids of the traces of `service` holding a span with the tag `key` = `value` (newest first). */
  findTraceIds(service: string, key: string, value: string): Promise<string[]>;
  /** Every span of a trace (empty when Jaeger has none yet). */
  traceSpans(traceId: string): Promise<JaegerSpan[]>;
  stop(): Promise<void>;
}

const JAEGER_BIN = join(homedir(), '.cache/agent-platform/go-bin/jaeger');

/**
 * A real Jaeger to export spans to and read them back. The local stack's when the environment names
 * it (`JAEGER_QUERY_URL` with `OTEL_EXPORTER_OTLP_ENDPOINT`, deploy/local/env.sh), else a copy of
 * the built Jaeger v2 binary on free ports with in-memory storage, stopped by `stop`.
 */
export async function startTraceBackend(): Promise<TraceBackend> {
  const queryUrl = process.env.JAEGER_QUERY_URL;
  const otlp = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (queryUrl && otlp) return backend(otlp, queryUrl, async () => undefined);
  return startOwnJaeger();
}

async function startOwnJaeger(): Promise<TraceBackend> {
  const [otlpPort, queryPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const dir = await mkdtemp(join(tmpdir(), 'jaeger-'));
  const config = join(dir, 'jaeger.yaml');
  await writeFile(config, jaegerConfig(otlpPort, queryPort, grpcPort));
  const output: string[] = [];
  const child: ChildProcess = spawn(JAEGER_BIN, ['--config', `file:${config}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`jaeger exited with ${child.exitCode}`);
        const answer = await fetch(`${queryUrl}/api/services`).catch(() => undefined);
        return answer?.ok ? true : undefined;
      },
      30_000,
      'jaeger did not start',
      100,
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output.join('').slice(-2_000)}`);
  }
  return backend(`http://127.0.0.1:${otlpPort}`, queryUrl, stop);
}

/** Jaeger v2 (an OpenTelemetry Collector distribution): OTLP/HTTP in, memory storage, the query API. */
function jaegerConfig(otlpPort: number, queryPort: number, grpcPort: number): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
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
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

interface JaegerTrace {
  traceID: string;
  spans: {
    traceID: string;
    spanID: string;
    operationName: string;
    processID: string;
    references?: { refType: string; spanID: string }[];
    tags?: { key: string; value: unknown }[];
  }[];
  processes: Record<string, { serviceName: string }>;
}

function backend(otlpEndpoint: string, queryUrl: string, stop: () => Promise<void>): TraceBackend {
  const traces = async (path: string): Promise<JaegerTrace[]> => {
    const answer = await fetch(`${queryUrl}${path}`);
    if (answer.status === 404) return [];
    if (!answer.ok) throw new Error(`jaeger ${path}: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: JaegerTrace[] | null }).data ?? [];
  };
  return {
    otlpEndpoint,
    queryUrl,
    async findTraceIds(service, key, value) {
      const tags = encodeURIComponent(JSON.stringify({ [key]: value }));
      const found = await traces(
        `/api/traces?service=${encodeURIComponent(service)}&tags=${tags}&lookback=1h&limit=20`,
      );
      return found.map((t) => t.traceID);
    },
    async traceSpans(traceId) {
      const [trace] = await traces(`/api/traces/${traceId}`);
      if (!trace) return [];
      return trace.spans.map((span) => ({
        traceId: span.traceID,
        spanId: span.spanID,
        parentSpanId: span.references?.find((r) => r.refType === 'CHILD_OF')?.spanID,
        name: span.operationName,
        service: trace.processes[span.processID]?.serviceName ?? '',
        tags: Object.fromEntries((span.tags ?? []).map((tag) => [tag.key, tag.value])),
      }));
    },
    stop,
  };
}
