// Benchmark of the identity paths through the RUNNING platform (`./platform up`):
//   1. password login (form POST /login/access-token) at a fixed rate, and its closed-loop maximum;
//   2. an authenticated request through the gateway (GET /users/me) vs the same RPC called
//      directly over gRPC (GetCurrentUser with the principal in metadata);
//   3. the gateway's authentication path alone (JWT verify + Redis revocation MGET + cached
//      principal lookup), measured in-process with the gateway's own Authenticator.
//
//   source deploy/local/env.sh && node bench/dist/identity-auth.js [--rate 300] [--login-rate 5] [--duration 10]
//
// It registers one bench user and marks it verified and approved directly in the identity
// database (operator access through IDENTITY_DATABASE_URL), so it works whatever the settings.
import { SessionRegistry, TokenService } from '@platform/auth';
import { identityV1 } from '@platform/contracts';
import * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import { createPool } from '@platform/db';
import { Authenticator, IdentityPrincipalResolver } from '@platform/gateway';
import { createServiceClient } from '@platform/grpc';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { keepAliveGetter } from './lib/http-client.js';
import { openLoop } from './lib/open-loop.js';
import { tableHeader, tableRow } from './lib/report.js';
import { gatewayCredentials } from './lib/trust.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    'login-rate': { type: 'string', default: '5' },
    duration: { type: 'string', default: '10' },
  },
});
const rate = Number(values.rate);
const loginRate = Number(values['login-rate']);
const duration = Number(values.duration);
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
};
const gateway = `http://127.0.0.1:${process.env.HTTP_PORT ?? '8080'}/api/v1`;

async function createBenchUser(): Promise<{ username: string; password: string }> {
  const username = `bench_${randomBytes(4).toString('hex')}`;
  const password = `Bench-${randomBytes(9).toString('base64url')}1`;
  const response = await fetch(`${gateway}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@bench.local`, password, terms_accepted: true }),
  });
  const body = (await response.json()) as { code: number; msg: string };
  if (body.code !== 0) throw new Error(`register failed: ${body.code} ${body.msg}`);
  const pool = createPool(env('IDENTITY_DATABASE_URL'), { max: 1 });
  await pool.query(
    `UPDATE users SET email_verified = true, approval_status = 'approved', is_active = true WHERE username = $1`,
    [username],
  );
  await pool.end();
  return { username, password };
}

function loginRequest(username: string, password: string): () => Promise<string> {
  const body = new URLSearchParams({ username, password }).toString();
  return async () => {
    const response = await fetch(`${gateway}/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const envelope = (await response.json()) as { code: number; data: { access_token?: string } };
    if (envelope.code !== 0 || !envelope.data.access_token) throw new Error(`login failed: ${envelope.code}`);
    return envelope.data.access_token;
  };
}

const { username, password } = await createBenchUser();
const login = loginRequest(username, password);
const token = await login();

const identity = createServiceClient(
  identityV1.IdentityServiceService,
  'platform.identity.v1.IdentityService',
  env('IDENTITY_GRPC_ADDR'),
  { credentials: gatewayCredentials('identity') },
);
const auth = createServiceClient(
  authV1.AuthServiceService,
  'platform.identity.v1.AuthService',
  env('IDENTITY_GRPC_ADDR'),
  { credentials: gatewayCredentials('identity') },
);
const redis = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 1 });
const authenticator = new Authenticator(
  new TokenService(env('SECRET_KEY')),
  new SessionRegistry(redis),
  new IdentityPrincipalResolver(identity, 5_000),
);
try {
  const { principal } = await authenticator.authenticate(`Bearer ${token}`, 'user');
  const direct = () => auth.call('getCurrentUser', {}, { principal });
  const viaGateway = keepAliveGetterWithToken(`${gateway}/users/me`, token);
  const authPath = () => authenticator.authenticate(`Bearer ${token}`, 'user');

  await openLoop(direct, rate, 2);
  await openLoop(viaGateway, rate, 2);
  await openLoop(authPath, rate, 2);
  const loginOpen = await openLoop(login, loginRate, duration);
  const directReport = await openLoop(direct, rate, duration);
  const gatewayReport = await openLoop(viaGateway, rate, duration);
  const authReport = await openLoop(authPath, rate, duration);
  const loginMax = await autocannon({
    url: `${gateway}/login/access-token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
    connections: 4,
    duration,
  });

  console.log(`\nIdentity paths, ${duration}s each after a warm-up, latency in ms\n`);
  console.log(tableHeader());
  console.log(tableRow('password login (gateway → identity, scrypt)', loginRate, loginOpen));
  console.log(tableRow('GetCurrentUser direct gRPC', rate, directReport));
  console.log(tableRow('GET /users/me through the gateway', rate, gatewayReport));
  console.log(tableRow('gateway authentication path alone', rate, authReport));
  console.log(
    `\ngateway adds ${(gatewayReport.p50 - directReport.p50).toFixed(3)} ms at p50 over the direct call ` +
      `(HTTP parsing, authentication, envelope); the authentication path alone is ${authReport.p50.toFixed(3)} ms at p50.`,
  );
  console.log(
    `password login closed-loop maximum (autocannon, 4 connections): ${Math.round(loginMax.requests.average)} logins/s, ` +
      `p50 ${loginMax.latency.p50} ms, p99 ${loginMax.latency.p99} ms, non-2xx ${loginMax.non2xx}`,
  );
} finally {
  identity.close();
  auth.close();
  redis.disconnect();
}

function keepAliveGetterWithToken(url: string, bearer: string): () => Promise<void> {
  return keepAliveGetter(url, 64, { authorization: `Bearer ${bearer}` });
}
