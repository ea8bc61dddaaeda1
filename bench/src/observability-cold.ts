// Benchmark: the admin observability API answered COLD over N facts spread over 30 days, and the
// fact consumers' throughput and lag recovery.
//
//   source deploy/local/env.sh && node bench/dist/observability-cold.js [--facts 10000000]
//          [--agents 100] [--consumed 1000000] [--calls 30] [--restarts 10]
//
// 1. `--consumed` agent rounds are published while the service is stopped; it is then started and
//    the lag drain is timed (facts/s ingested by the real consumer, through Kafka).
// 2. The rest of `--facts` is seeded with SQL (rows and their rollups, as the consumer writes them).
// 3. Each endpoint is called `--calls` times with the payload cache emptied before every call, then
//    `--restarts` times right after a Postgres restart with the OS page cache dropped (root only):
//    nothing of the data is in memory then.
// Postgres is the benchmarks' own (bench/scripts/bench-postgres.sh, port 55532), never the shared
// stack's; Redis and Kafka are shared, under a unique key prefix and topic prefix.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyticsSets } from '@platform/contracts';
import * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createServiceClient, type Principal } from '@platform/grpc';
import { Kafka } from 'kafkajs';
import { Redis } from 'ioredis';
import { gatewayCredentials, ownSigningKeyEnv } from './lib/trust.js';
import { benchAgentId, benchWorkflowId, explainPlans, seedFacts } from './lib/observability-seed.js';

const { values } = parseArgs({
  options: {
    facts: { type: 'string', default: '10000000' },
    agents: { type: 'string', default: '100' },
    consumed: { type: 'string', default: '1000000' },
    calls: { type: 'string', default: '30' },
    restarts: { type: 'string', default: '10' },
  },
});
const PORT = 50186;
const benchPostgres = (command: 'start' | 'restart' | 'url') => {
  const out = spawnSync(
    'bash',
    [fileURLToPath(new URL('../scripts/bench-postgres.sh', import.meta.url)), command],
    {
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`bench-postgres.sh ${command}: ${out.stderr}`);
  return out.stdout.trim();
};
benchPostgres('start');
const admin = benchPostgres('url');
const database = `bench_observability_${randomUUID().slice(0, 8)}`;
const prefix = `bench-${randomUUID().slice(0, 8)}.`;
const redisPrefix = `bench-obs-${randomUUID().slice(0, 8)}:`;
const url = withDatabase(admin, database);
const principal: Principal = {
  user_id: randomUUID(),
  username: 'bench',
  is_superuser: true,
  permissions: ['*'],
  team_ids: [],
  auth_method: 'jwt',
};

await ensureDatabase(admin, database);
const pool = createPool(url, { statementTimeoutMs: 0 });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0');
const kafka = new Kafka({
  clientId: 'bench-observability',
  brokers: (process.env.KAFKA_BROKERS ?? '').split(','),
  logLevel: 0,
});
let service: ChildProcess | undefined;

function start(): ChildProcess {
  return spawn(
    process.execPath,
    [fileURLToPath(new URL('../../services/observability/dist/main.js', import.meta.url))],
    {
      env: {
        ...process.env,
        ...ownSigningKeyEnv('observability'),
        LOG_LEVEL: 'warn',
        GRPC_PORT: String(PORT),
        METRICS_PORT: '0',
        DATABASE_URL: url,
        REDIS_KEY_PREFIX: redisPrefix,
        TELEMETRY_TOPIC_PREFIX: prefix,
        TELEMETRY_GROUP: `${prefix}telemetry`,
        AGENT_DIRECTORY_GROUP: `${prefix}agent-directory`,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

const count = async () =>
  Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM agent_rounds')).rows[0]!.n);

try {
  // 1. Consumer throughput: publish while the service is stopped, then time the lag drain.
  const consumed = Number(values.consumed);
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin.connect();
  await kafkaAdmin.createTopics({
    topics: [
      { topic: `${prefix}platform.agent-rounds`, numPartitions: 3 },
      { topic: `${prefix}platform.workflow-runs`, numPartitions: 3 },
    ],
  });
  await kafkaAdmin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const base = Date.now();
  for (let i = 0; i < consumed; i += 5000) {
    const messages = Array.from({ length: Math.min(5000, consumed - i) }, (_, j) => {
      const n = i + j;
      return {
        key: `c-${n}`,
        value: JSON.stringify({
          id: `c-${n}`,
          agent_id: benchAgentId(n % Number(values.agents)),
          round_status: n % 20 === 0 ? 'error' : 'completed',
          duration_ms: Math.round(Math.exp(Math.random() * Math.log(30_000))),
          first_token_ms: Math.round(Math.exp(Math.random() * Math.log(3_000))),
          prompt_tokens: 100,
          completion_tokens: 50,
          model: `model-${n % 5}`,
          finished_at: new Date(base - Math.random() * 30 * 86_400_000).toISOString(),
        }),
      };
    });
    await producer.send({ topic: `${prefix}platform.agent-rounds`, messages });
  }
  await producer.disconnect();
  service = start();
  const client = createServiceClient(
    analyticsV1.AnalyticsServiceService,
    'platform.observability.v1.AnalyticsService',
    `127.0.0.1:${PORT}`,
    {
      credentials: gatewayCredentials('observability'),
      defaultTimeoutMs: 120_000,
    },
  );
  await client.waitForReady(60_000);
  for (let i = 0; ; i++) {
    try {
      await count();
      break;
    } catch (error) {
      if (i > 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const drainStart = performance.now();
  while ((await count()) < consumed) await new Promise((resolve) => setTimeout(resolve, 200));
  const drainSeconds = (performance.now() - drainStart) / 1000;
  console.log(
    `consumer: ${consumed} facts published while stopped, drained in ${drainSeconds.toFixed(1)} s = ${Math.round(consumed / drainSeconds)} facts/s`,
  );

  // 2. Bulk facts over 30 days, straight into the tables (rows + rollups).
  const seedStart = performance.now();
  await seedFacts(pool, Number(values.facts), Number(values.agents), (done) =>
    process.stdout.write(`\rseeded ${done}`),
  );
  console.log(`\nseeded ${values.facts} facts in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
  await pool.query('VACUUM ANALYZE');

  // 3. Cold calls: the payload cache emptied before each; then right after Postgres restarts.
  const clear = async () => {
    const keys = await redis.keys(`${redisPrefix}cache:*`);
    if (keys.length > 0) await redis.del(...keys);
  };
  const timed = async (call: () => Promise<unknown>) => {
    const t = performance.now();
    await call();
    return performance.now() - t;
  };
  const report = (name: string, times: number[]) => {
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(1);
    console.log(
      `${name}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times.at(-1)!.toFixed(1)} ms (${times.length} calls)`,
    );
  };
  // The enums the gateway sends for these query values (packages/contracts observability-sets.ts).
  const range = (name: '7d' | '30d' | 'all') => analyticsSets.TIME_RANGES.toProto(name);
  const sortKey = (name: 'requests' | 'p99' | 'p95' | 'runs') =>
    analyticsSets.WORKFLOW_SORT_KEYS.toProto(name);
  const desc = analyticsSets.SORT_ORDERS.toProto('desc');
  const list =
    (
      method: 'listAgents' | 'listWorkflows',
      time_range: '7d' | '30d',
      sort_by: 'requests' | 'p99' | 'p95' | 'runs',
    ) =>
    () =>
      client.call(
        method,
        {
          time_range: range(time_range),
          page: 1,
          page_size: 20,
          sort_by: sortKey(sort_by),
          sort_order: desc,
        },
        { principal },
      );
  const endpoints: Array<[string, () => Promise<unknown>]> = [
    ['/overview 30d', () => client.call('getOverview', { time_range: range('30d') }, { principal })],
    ['/overview 7d', () => client.call('getOverview', { time_range: range('7d') }, { principal })],
    ['/overview all', () => client.call('getOverview', { time_range: range('all') }, { principal })],
    ['/agents 30d sort requests (default)', list('listAgents', '30d', 'requests')],
    ['/agents 30d sort p99', list('listAgents', '30d', 'p99')],
    ['/agents 7d sort requests', list('listAgents', '7d', 'requests')],
    ['/workflows 30d sort p95', list('listWorkflows', '30d', 'p95')],
    ['/workflows 30d sort runs (default)', list('listWorkflows', '30d', 'runs')],
    [
      '/agent/{id} 30d',
      () => client.call('getAgent', { id: benchAgentId(7), time_range: range('30d') }, { principal }),
    ],
    [
      '/workflow/{id} 30d',
      () => client.call('getWorkflow', { id: benchWorkflowId(7), time_range: range('30d') }, { principal }),
    ],
  ];
  for (const [name, call] of endpoints) {
    const times: number[] = [];
    for (let i = 0; i < Number(values.calls); i++) {
      await clear();
      times.push(await timed(call));
    }
    report(`${name} cold (cache emptied)`, times);
  }
  for (const [name, call] of endpoints.filter(([n]) => /^\/(overview 30d|agents 30d)/.test(n))) {
    const times: number[] = [];
    for (let i = 0; i < Number(values.restarts); i++) {
      benchPostgres('restart');
      await clear();
      times.push(await timed(call));
    }
    report(`${name} after a Postgres restart (page cache dropped)`, times);
  }
  const overview = await client.call('getOverview', { time_range: range('all') }, { principal });
  console.log(
    `overview totals: ${JSON.stringify(overview.totals)} latency ${JSON.stringify(overview.latency)}`,
  );
  console.log(await explainPlans(pool));
  client.close();
} finally {
  service?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await pool.end();
  redis.disconnect();
  await dropDatabase(admin, database);
}
