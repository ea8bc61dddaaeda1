// Benchmark: API-key verification through the gateway. The real identity and apikeys services
// (services/*/dist/main.js on fresh bench databases) and two gateway replicas built from the
// production pieces (bench/src/apikey-gateway-server.ts): one with the verification cache, one
// without (every request cold: VerifyKey over gRPC, Postgres lookup, identity name lookup). The
// same route is called with a JWT, with a warm API key and with a cold API key at one fixed rate
// (open loop, HdrHistogram), then each closed-loop with autocannon for throughput.
//
//   source deploy/local/env.sh && node bench/dist/apikey-verify.js [--rate 300] [--duration 10]
//
// Needs the local stack (Postgres, Redis, Kafka) and `pnpm build`; it does not touch the running
// services (own ports 50181-50184, own databases, dropped at the end).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TokenService } from '@platform/auth';
import { apikeysV1 } from '@platform/contracts';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createServiceClient, type Principal } from '@platform/grpc';
import autocannon from 'autocannon';
import { childLogFile, startChild, stopChild } from './lib/children.js';
import { keepAliveGetter } from './lib/http-client.js';
import { openLoop } from './lib/open-loop.js';
import { tableHeader, tableRow } from './lib/report.js';
import { gatewayCredentials, ownSigningKeyEnv } from './lib/trust.js';

const { values } = parseArgs({
  options: { rate: { type: 'string', default: '300' }, duration: { type: 'string', default: '10' } },
});
const rate = Number(values.rate);
const duration = Number(values.duration);
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
};
const PORTS = { identity: 50181, apikeys: 50182, warm: 50183, cold: 50184 };
const suffix = randomUUID().slice(0, 8);
const databases = { identity: `bench_identity_${suffix}`, apikeys: `bench_apikeys_${suffix}` };
const admin = env('POSTGRES_ADMIN_URL');

function startService(name: 'identity' | 'apikeys', extra: Record<string, string>): ChildProcess {
  const main = fileURLToPath(new URL(`../../services/${name}/dist/main.js`, import.meta.url));
  return spawn(process.execPath, [main], {
    env: {
      ...process.env,
      ...(name === 'apikeys' ? ownSigningKeyEnv(name) : {}),
      LOG_LEVEL: 'warn',
      GRPC_PORT: String(PORTS[name]),
      METRICS_PORT: '0',
      DATABASE_URL: withDatabase(admin, databases[name]),
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

await ensureDatabase(admin, databases.identity);
await ensureDatabase(admin, databases.apikeys);
const identity = startService('identity', { QUEUE_TOPIC_PREFIX: `bench-${suffix}.` });
const apikeysProcess = startService('apikeys', {
  IDENTITY_GRPC_ADDR: `127.0.0.1:${PORTS.identity}`,
  REDIS_KEY_PREFIX: `bench-apikeys-${suffix}:`,
  AGENT_DIRECTORY_GROUP: `bench.apikeys.${suffix}`,
});
const apikeys = createServiceClient(
  apikeysV1.ApiKeysServiceService,
  'platform.apikeys.v1.ApiKeysService',
  `127.0.0.1:${PORTS.apikeys}`,
  { credentials: gatewayCredentials('apikeys') },
);
const gatewayEnv = {
  IDENTITY_GRPC_ADDR: `127.0.0.1:${PORTS.identity}`,
  APIKEYS_GRPC_ADDR: `127.0.0.1:${PORTS.apikeys}`,
};
const children: ChildProcess[] = [];
try {
  await apikeys.waitForReady(60_000);
  // Identity migrates on start; wait until its tables exist, then add the bench user directly.
  const identityPool = createPool(withDatabase(admin, databases.identity), { max: 1 });
  let userId = '';
  for (let i = 0; !userId; i++) {
    try {
      const { rows } = await identityPool.query<{ id: string }>(
        `INSERT INTO users (username, email, password_hash, is_active, approval_status, email_verified)
         VALUES ($1, $2, 'x', true, 'approved', true) RETURNING id`,
        [`bench_${suffix}`, `bench_${suffix}@bench.local`],
      );
      userId = rows[0]!.id;
      await identityPool.query(`INSERT INTO user_roles SELECT $1, id FROM roles WHERE name = 'User'`, [
        userId,
      ]);
    } catch (error) {
      if (i > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await identityPool.end();
  const jwt = (await new TokenService(env('SECRET_KEY')).issue(userId, 'access', 3600)).token;
  const owner: Principal = {
    user_id: userId,
    username: `bench_${suffix}`,
    is_superuser: false,
    permissions: ['apikey:create'],
    team_ids: [],
    auth_method: 'jwt',
  };
  const created = await apikeys.call(
    'createApiKey',
    {
      name: 'bench',
      scopes: [apikeysV1.ApiKeyScope.API_KEY_SCOPE_WORKFLOW_EXECUTE],
      rate_limit: 0,
      agent_ids: [],
      workflow_ids: [],
      origin: { ip: '127.0.0.1', user_agent: 'bench' },
    },
    { principal: owner },
  );
  children.push(
    await startChild(
      'apikey-gateway-server.js',
      {
        ...gatewayEnv,
        GATEWAY_PORT: String(PORTS.warm),
        API_KEY_CACHE_MAX_ENTRIES: '10000',
      },
      childLogFile('apikey-gateway-warm'),
    ),
  );
  children.push(
    await startChild(
      'apikey-gateway-server.js',
      {
        ...gatewayEnv,
        GATEWAY_PORT: String(PORTS.cold),
        API_KEY_CACHE_MAX_ENTRIES: '0',
      },
      childLogFile('apikey-gateway-cold'),
    ),
  );

  const path = `/api/v1/bench/workflows/${randomUUID()}`;
  const url = (port: number) => `http://127.0.0.1:${port}${path}`;
  const calls = {
    jwt: keepAliveGetter(url(PORTS.warm), 64, { authorization: `Bearer ${jwt}` }),
    warm: keepAliveGetter(url(PORTS.warm), 64, { authorization: `Bearer ${created.key}` }),
    cold: keepAliveGetter(url(PORTS.cold), 64, { authorization: `Bearer ${created.key}` }),
  };
  for (const call of Object.values(calls)) await openLoop(call, rate, 2); // warm-up (JIT, pools, caches)
  const reports = {
    jwt: await openLoop(calls.jwt, rate, duration),
    warm: await openLoop(calls.warm, rate, duration),
    cold: await openLoop(calls.cold, rate, duration),
  };
  const closed = async (port: number, credential: string) => {
    const result = await autocannon({
      url: url(port),
      headers: { authorization: `Bearer ${credential}` },
      connections: 16,
      duration,
    });
    return `${Math.round(result.requests.average)} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx})`;
  };
  const maxima = {
    jwt: await closed(PORTS.warm, jwt),
    warm: await closed(PORTS.warm, created.key),
    cold: await closed(PORTS.cold, created.key),
  };

  console.log(
    `\nAPI-key verification through the gateway, ${duration}s each after a warm-up, latency in ms\n`,
  );
  console.log(tableHeader());
  console.log(tableRow('JWT (same route)', rate, reports.jwt));
  console.log(tableRow('API key, warm cache', rate, reports.warm));
  console.log(tableRow('API key, cold (no cache: VerifyKey every request)', rate, reports.cold));
  console.log(
    `\nwarm API key vs JWT at p50: ${(reports.warm.p50 - reports.jwt.p50).toFixed(3)} ms; ` +
      `cold vs JWT: ${(reports.cold.p50 - reports.jwt.p50).toFixed(3)} ms`,
  );
  console.log(
    `closed loop (autocannon, 16 connections): JWT ${maxima.jwt}; warm key ${maxima.warm}; cold key ${maxima.cold}`,
  );
} finally {
  for (const child of children) await stopChild(child);
  apikeys.close();
  await stopProcess(apikeysProcess);
  await stopProcess(identity);
  await dropDatabase(admin, databases.apikeys);
  await dropDatabase(admin, databases.identity);
}
