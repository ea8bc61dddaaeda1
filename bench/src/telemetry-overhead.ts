// Benchmark (issue 22): what telemetry costs a gateway request. Two gateway replicas built like
// production (lib/representative-gateway.ts: the whole route table before the probe routes, the
// access log at info to a file) serve the same probe RPC (ProbeService.Echo over gRPC) side by side:
//   off  TELEMETRY_ENABLED=false: no metrics, no spans (the access log still written);
//   on   metrics on, tracing sampled at 10 % (OTEL_TRACES_SAMPLER_ARG=0.1, parent-based), spans
//        exported over OTLP/HTTP to the local Jaeger (OTEL_EXPORTER_OTLP_ENDPOINT, env.sh).
// Both are driven by the same open-loop generator at the same fixed rate (lib/open-loop.ts), in
// interleaved rounds (off, on, on, off, …) so a change in the machine's load hits both alike. Prints
// p50/p99 per variant (the median over rounds) and the difference on-minus-off, per round and
// overall. Goal: on adds at most 0.1 ms at p50.
//
//   source deploy/local/env.sh && node bench/dist/telemetry-overhead.js [--rate 500] [--rounds 6] [--duration 10] [--warmup 3]
//
// Needs the local stack with Jaeger (`bash deploy/local/stack.sh up`); without a Jaeger on the
// endpoint the spans are dropped after failed exports, which is not what production pays.
import { parseArgs } from 'node:util';
import { childLogFile, startChild, stopChild } from './lib/children.js';
import { keepAliveGetter } from './lib/http-client.js';
import { openLoop, type LatencyReport } from './lib/open-loop.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
  },
});
const rate = Number(values.rate);
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const PROBE_PORT = '50195';
const PORTS = { off: '50196', on: '50197' } as const;
type Variant = keyof typeof PORTS;
const VARIANTS: Variant[] = ['off', 'on'];
const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://127.0.0.1:54318';

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => value.toFixed(3);

async function startGateway(variant: Variant) {
  const telemetry: Record<string, string> =
    variant === 'off'
      ? { TELEMETRY_ENABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: '' }
      : { TELEMETRY_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER_ARG: '0.1' };
  return startChild(
    'gateway-server.js',
    {
      GATEWAY_PORT: PORTS[variant],
      PROBE_ADDR: `127.0.0.1:${PROBE_PORT}`,
      BENCH_TELEMETRY: '1',
      ...telemetry,
    },
    childLogFile(`telemetry-${variant}`),
  );
}

const probe = await startChild('probe-server.js', { PROBE_PORT });
const gateways = { off: await startGateway('off'), on: await startGateway('on') };
const send = Object.fromEntries(
  VARIANTS.map((v) => [v, keepAliveGetter(`http://127.0.0.1:${PORTS[v]}/api/v1/probe/echo?text=bench`)]),
) as Record<Variant, () => Promise<unknown>>;
const results: Record<Variant, LatencyReport[]> = { off: [], on: [] };
try {
  for (const v of VARIANTS) await openLoop(send[v], rate, warmup);
  for (let round = 0; round < rounds; round++) {
    // off/on, then on/off: neither variant always runs first (a warmer cache, a quieter second).
    const order: Variant[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const v of order) results[v].push(await openLoop(send[v], rate, duration));
    const [off, on] = [results.off[round]!, results.on[round]!];
    console.log(
      `round ${round + 1}/${rounds}: p50 off ${ms(off.p50)} on ${ms(on.p50)} (${ms(on.p50 - off.p50)}), ` +
        `p99 off ${ms(off.p99)} on ${ms(on.p99)}, errors ${off.errors + on.errors}`,
    );
  }
  console.log(
    `\nProbeService.Echo through the gateway at ${rate} req/s, ${rounds} interleaved rounds of ${duration}s ` +
      `per variant (after ${warmup}s warm-up), latency in ms, median over rounds\n`,
  );
  console.log('| gateway | achieved req/s | p50 | p99 | p99.9 | errors |');
  console.log('|---|---|---|---|---|---|');
  const label = {
    off: 'telemetry off (TELEMETRY_ENABLED=false)',
    on: 'metrics + tracing at 10 %, OTLP to Jaeger',
  };
  for (const v of VARIANTS) {
    const list = results[v];
    console.log(
      `| ${label[v]} | ${Math.round(median(list.map((r) => r.throughput)))} | ${ms(median(list.map((r) => r.p50)))} | ` +
        `${ms(median(list.map((r) => r.p99)))} | ${ms(median(list.map((r) => r.p999)))} | ${list.reduce((n, r) => n + r.errors, 0)} |`,
    );
  }
  const p50Diffs = results.on.map((r, i) => r.p50 - results.off[i]!.p50);
  const p99Diffs = results.on.map((r, i) => r.p99 - results.off[i]!.p99);
  const added = median(p50Diffs);
  console.log(
    `\ntelemetry adds ${ms(added)} ms at p50 (median of the per-round differences; rounds: ${p50Diffs.map(ms).join(', ')}), ` +
      `${ms(median(p99Diffs))} ms at p99; goal ≤ 0.100 ms at p50: ${added <= 0.1 ? 'met' : 'NOT met'}`,
  );
} finally {
  await stopChild(gateways.on);
  await stopChild(gateways.off);
  await stopChild(probe);
}
