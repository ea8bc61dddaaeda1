import { SessionRegistry, TokenService } from '@platform/auth';
import { conformanceV1 } from '@platform/contracts';
import { createOutgoingTrust, createServiceClient } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { listen, stackEnv, type RunningHttp } from '@platform/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRoutes, startProbeService, type RunningProbe } from '../../../bench/src/probe/index.js';
import { Authenticator, createGatewayApp, type PrincipalResolver, type ResolvedUser } from '../src/index.js';

// The JWT middleware against real Redis (revocation) and a real service (principal in metadata).
// Identity is not part of this test: users come from a directory the test controls.
const logger = createLogger('auth-test', 'silent');
const tokens = new TokenService(stackEnv.secretKey);
const users = new Map<string, ResolvedUser>();
const directory: PrincipalResolver = { resolve: async (id) => users.get(id) ?? null };

function addUser(overrides: Partial<ResolvedUser> = {}): ResolvedUser {
  const user: ResolvedUser = {
    user_id: randomUUID(),
    username: `u-${Math.random().toString(36).slice(2, 8)}`,
    is_superuser: false,
    permissions: ['probe:read'],
    team_ids: [],
    auth_method: 'jwt',
    is_active: true,
    approval_status: 'approved',
    ...overrides,
  };
  users.set(user.user_id, user);
  return user;
}

let redis: Redis;
let sessions: SessionRegistry;
let probe: RunningProbe;
let http: RunningHttp;
let client: ReturnType<typeof createServiceClient<typeof conformanceV1.ProbeServiceService>>;

beforeAll(async () => {
  redis = new Redis(stackEnv.redisUrl, { maxRetriesPerRequest: 1 });
  sessions = new SessionRegistry(redis);
  probe = await startProbeService(stackEnv.databaseUrl, logger);
  // The gateway's credentials for the probe (audience `probe`): principals go signed.
  const trust = createOutgoingTrust({
    service: 'gateway',
    serviceSigningKey: stackEnv.serviceSigningKey('gateway'),
    principalSigningKey: stackEnv.principalSigningPrivateKey,
  });
  client = createServiceClient(
    conformanceV1.ProbeServiceService,
    'platform.conformance.v1.ProbeService',
    probe.address,
    { credentials: trust.to('probe') },
  );
  const authenticator = new Authenticator(tokens, sessions, directory);
  http = await listen(
    createGatewayApp({ logger, routes: probeRoutes, clients: { probe: client }, authenticator }),
  );
});

afterAll(async () => {
  await http?.close();
  client?.close();
  await probe?.stop();
  redis?.disconnect();
});

async function whoami(authorization?: string) {
  const response = await fetch(`${http.baseUrl}/api/v1/probe/whoami`, {
    headers: authorization ? { authorization } : {},
  });
  return {
    status: response.status,
    body: (await response.json()) as { code: number; data: any; msg: string },
  };
}

describe('JWT authentication at the gateway', () => {
  it('passes the principal to the service', async () => {
    const user = addUser();
    const { token } = await tokens.issue(user.user_id, 'access', 3600);
    const result = await whoami(`Bearer ${token}`);
    expect(result).toMatchObject({ status: 200, body: { code: 0, data: { user_id: user.user_id } } });
  });

  it('no credentials: 401 / 2000', async () => {
    expect(await whoami()).toMatchObject({ status: 401, body: { code: 2000 } });
    expect(await whoami('Basic abc')).toMatchObject({ status: 401, body: { code: 2000 } });
  });

  it('undecodable, wrongly signed, expired or temp token: 403 / 2003', async () => {
    const user = addUser();
    const foreign = await new TokenService(`${stackEnv.secretKey}-other`).issue(user.user_id, 'access', 3600);
    const expired = await tokens.issue(user.user_id, 'access', -5);
    const temp = await tokens.issue(user.user_id, 'totp_challenge', 300);
    for (const token of ['garbage', foreign.token, expired.token, temp.token]) {
      expect(await whoami(`Bearer ${token}`)).toMatchObject({ status: 403, body: { code: 2003 } });
    }
  });

  it('a revoked token: 401 / 2001 on the very next request', async () => {
    const user = addUser();
    const issued = await tokens.issue(user.user_id, 'access', 3600);
    expect((await whoami(`Bearer ${issued.token}`)).status).toBe(200);
    await sessions.revoke(issued.claims);
    expect(await whoami(`Bearer ${issued.token}`)).toMatchObject({ status: 401, body: { code: 2001 } });
  });

  it('a token superseded by a single-session login: 401 / 2001 session_expired_new_login', async () => {
    const user = addUser();
    const first = await tokens.issue(user.user_id, 'access', 3600);
    const second = await tokens.issue(user.user_id, 'access', 3600);
    await sessions.makeCurrent(second.claims);
    const evicted = await whoami(`Bearer ${first.token}`);
    expect(evicted).toMatchObject({
      status: 401,
      body: { code: 2001, data: { error_key: 'session_expired_new_login' } },
    });
    expect((await whoami(`Bearer ${second.token}`)).status).toBe(200);
  });

  it('an inactive or pending user: 401 / 2004; a deleted user: 401 / 2001', async () => {
    for (const overrides of [{ is_active: false }, { approval_status: 'pending' as const }]) {
      const user = addUser(overrides);
      const { token } = await tokens.issue(user.user_id, 'access', 3600);
      expect(await whoami(`Bearer ${token}`)).toMatchObject({ status: 401, body: { code: 2004 } });
    }
    const { token } = await tokens.issue(randomUUID(), 'access', 3600);
    expect(await whoami(`Bearer ${token}`)).toMatchObject({ status: 401, body: { code: 2001 } });
  });

  it('a missing permission: 403 / 3000; a superuser or `*` passes', async () => {
    const plain = addUser({ permissions: [] });
    const { token } = await tokens.issue(plain.user_id, 'access', 3600);
    expect(await whoami(`Bearer ${token}`)).toMatchObject({ status: 403, body: { code: 3000 } });
    for (const overrides of [{ permissions: ['*'] }, { permissions: [], is_superuser: true }]) {
      const admin = addUser(overrides);
      const issued = await tokens.issue(admin.user_id, 'access', 3600);
      expect((await whoami(`Bearer ${issued.token}`)).status).toBe(200);
    }
  });
});
