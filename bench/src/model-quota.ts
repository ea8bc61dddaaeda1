// Benchmark: the models service's quota contract, AuthorizeModelUse then RecordModelUsage (one
// model use as the agent runtime makes it), by C concurrent callers on ONE team and model, so every
// record contends for the same counter row. Per concurrency level: p50/p99 of each RPC and of the
// pair, pairs per second, and the no-lost-update check (the period's counters must equal the sum
// of what the callers recorded).
//
//   source deploy/local/env.sh && node bench/dist/model-quota.js [--duration 10] [--concurrency 1,16,64]
//
// Needs the local stack and `pnpm build`; runs services/models/dist/main.js on its own port (50185)
// and a fresh bench database (dropped at the end); the running services are not touched.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { checkHealth, createOutgoingTrust, createServiceClient } from '@platform/grpc';
import * as hdr from 'hdr-histogram-js';
import { ownSigningKeyEnv, serviceSigningKey } from './lib/trust.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,16,64' },
  },
});
const duration = Number(values.duration);
const levels = values.concurrency.split(',').map(Number);
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
};
const PORT = 50185;
const address = `127.0.0.1:${PORT}`;
const database = `bench_models_${randomUUID().slice(0, 8)}`;
const admin = env('POSTGRES_ADMIN_URL');

await ensureDatabase(admin, database);
const child = spawn(
  process.execPath,
  [fileURLToPath(new URL('../../services/models/dist/main.js', import.meta.url))],
  {
    env: {
      ...process.env,
      ...ownSigningKeyEnv('models'),
      LOG_LEVEL: 'warn',
      GRPC_PORT: String(PORT),
      METRICS_PORT: '0',
      DATABASE_URL: withDatabase(admin, database),
      // Grants are inserted directly here; the quota RPCs never call identity.
      IDENTITY_GRPC_ADDR: '127.0.0.1:50061',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const pool = createPool(withDatabase(admin, database), { max: 2 });
const client = createServiceClient(
  grantsV1.ModelQuotaServiceService,
  'platform.models.v1.ModelQuotaService',
  address,
  {
    defaultTimeoutMs: 30_000,
    credentials: createOutgoingTrust({
      service: 'agent-runtime',
      serviceSigningKey: serviceSigningKey('agent-runtime'),
    }).to('models'),
  },
);

async function waitForService() {
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await checkHealth(address).catch(() => '')) === 'SERVING') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('models did not become healthy');
}

const histogram = () =>
  hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
const ms = (h: hdr.Histogram, percentile: number) => (h.getValueAtPercentile(percentile) / 1000).toFixed(3);

async function runLevel(concurrency: number) {
  const teamId = randomUUID();
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO models (name, provider, model_id, model_type) VALUES ($1, 'openai', 'gpt-bench', 'chat') RETURNING id`,
    [`bench-${concurrency}`],
  );
  const modelId = rows[0]!.id;
  await pool.query('INSERT INTO team_model_grants (team_id, model_id, token_quota) VALUES ($1, $2, $3)', [
    teamId,
    modelId,
    Number.MAX_SAFE_INTEGER,
  ]);
  const authorize = histogram();
  const record = histogram();
  const pair = histogram();
  let tokens = 0;
  let requests = 0;
  let errors = 0;
  const until = performance.now() + duration * 1000;
  const caller = async () => {
    while (performance.now() < until) {
      const amount = 1 + Math.floor(Math.random() * 2000);
      const started = performance.now();
      try {
        await client.call('authorizeModelUse', { team_id: teamId, model_id: modelId });
        const authorized = performance.now();
        await client.call('recordModelUsage', {
          team_id: teamId,
          model_id: modelId,
          tokens: amount,
          requests: 1,
          idempotency_key: randomUUID(),
        });
        const done = performance.now();
        tokens += amount;
        requests += 1;
        authorize.recordValue(Math.max(1, Math.round((authorized - started) * 1000)));
        record.recordValue(Math.max(1, Math.round((done - authorized) * 1000)));
        pair.recordValue(Math.max(1, Math.round((done - started) * 1000)));
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, caller));
  const elapsed = (performance.now() - started) / 1000;
  const counter = await pool.query<{ tokens: string; requests: string }>(
    'SELECT tokens, requests FROM model_usage_counters WHERE team_id = $1 AND model_id = $2',
    [teamId, modelId],
  );
  const stored = {
    tokens: Number(counter.rows[0]?.tokens ?? 0),
    requests: Number(counter.rows[0]?.requests ?? 0),
  };
  const exact = stored.tokens === tokens && stored.requests === requests;
  console.log(
    `| ${concurrency} | ${Math.round(requests / elapsed)} | ${ms(authorize, 50)} | ${ms(authorize, 99)} | ` +
      `${ms(record, 50)} | ${ms(record, 99)} | ${ms(pair, 50)} | ${ms(pair, 99)} | ${errors} | ` +
      `${requests} recorded = ${stored.requests} counted, ${tokens} tokens = ${stored.tokens}${exact ? '' : ' LOST UPDATES'} |`,
  );
  return exact;
}

let allExact = true;
try {
  await waitForService();
  console.log(`model quota bench: ${duration} s per level, one team and model per level\n`);
  console.log(
    '| callers | uses/s | authorize p50 ms | authorize p99 ms | record p50 ms | record p99 ms | use p50 ms | use p99 ms | errors | counters |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const level of levels) allExact = (await runLevel(level)) && allExact;
} finally {
  client.close();
  await pool.end();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await dropDatabase(admin, database);
}
if (!allExact) {
  console.error('counters differ from the sum recorded');
  process.exitCode = 1;
}
