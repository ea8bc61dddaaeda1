// Benchmark: the same RPC (ProbeService.Echo) called directly over gRPC and through the gateway
// (HTTP → route table → gRPC), both at the same fixed request rate with the same open-loop
// generator (lib/open-loop.ts, smooth pacing, HdrHistogram). Prints p50/p99/p99.9 latency in ms,
// throughput and the gateway/direct ratio; then the gateway's closed-loop maximum throughput with
// autocannon. autocannon's own `overallRate` sends each connection's quota in a burst at the start
// of every second, which inflates latency with queueing the server did not cause, so it is used
// here only for the maximum-throughput figure.
//
//   source deploy/local/env.sh && node bench/dist/gateway-vs-grpc.js [--rate 500] [--duration 15] [--warmup 3]
//
// Needs the local stack (Postgres for the probe's migrations, Redis for the gateway's revocation
// check): `bash deploy/local/stack.sh up`. The gateway is built like production (the whole route
// table before the probe routes, access log at info to a file): lib/representative-gateway.ts.
import autocannon from 'autocannon';
import { conformanceV1 } from '@platform/contracts';
import { createServiceClient } from '@platform/grpc';
import { parseArgs } from 'node:util';
import { childLogFile, startChild, stopChild } from './lib/children.js';
import { keepAliveGetter } from './lib/http-client.js';
import { openLoop, type LatencyReport } from './lib/open-loop.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
  },
});
const rate = Number(values.rate);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const PROBE_PORT = '50190';
const GATEWAY_PORT = '50191';

const GATEWAY_URL = `http://127.0.0.1:${GATEWAY_PORT}/api/v1/probe/echo?text=bench`;

async function maxThroughput(
  seconds: number,
): Promise<{ throughput: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({ url: GATEWAY_URL, connections: 16, duration: seconds });
  return {
    throughput: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function row(name: string, r: LatencyReport): string {
  return `| ${name} | ${rate} | ${r.throughput} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.p999.toFixed(3)} | ${r.errors} |`;
}

const probe = await startChild('probe-server.js', { PROBE_PORT });
const gateway = await startChild(
  'gateway-server.js',
  {
    GATEWAY_PORT,
    PROBE_ADDR: `127.0.0.1:${PROBE_PORT}`,
  },
  childLogFile('gateway'),
);
const client = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  `127.0.0.1:${PROBE_PORT}`,
);
const echo = () => client.call('echo', { text: 'bench', delay_ms: 0, include_principal: false });
const viaHttp = keepAliveGetter(GATEWAY_URL);
try {
  await openLoop(echo, rate, warmup);
  await openLoop(viaHttp, rate, warmup);
  const direct = await openLoop(echo, rate, duration);
  const viaGateway = await openLoop(viaHttp, rate, duration);
  const max = await maxThroughput(duration);
  console.log(
    `\nProbeService.Echo at ${rate} req/s for ${duration}s (after ${warmup}s warm-up), latency in ms\n`,
  );
  console.log('| path | target rate | achieved req/s | p50 | p99 | p99.9 | errors |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(row('direct gRPC', direct));
  console.log(row('gateway (HTTP → gRPC)', viaGateway));
  console.log(
    `\nratio gateway/direct: p50 ${(viaGateway.p50 / direct.p50).toFixed(2)}x, p99 ${(viaGateway.p99 / direct.p99).toFixed(2)}x, ` +
      `gateway adds ${(viaGateway.p50 - direct.p50).toFixed(3)} ms at p50`,
  );
  console.log(
    `gateway closed-loop maximum (autocannon, 16 connections, ${duration}s): ${max.throughput} req/s, ` +
      `p50 ${max.p50} ms, p99 ${max.p99} ms, errors ${max.errors}`,
  );
} finally {
  client.close();
  await stopChild(gateway);
  await stopChild(probe);
}
