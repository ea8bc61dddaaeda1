import { randomUUID } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { listen, stackEnv, uniqueName, type RunningHttp } from '@platform/testing';
import { loadApiKeysConfig } from '../../src/config.js';
import { startApiKeys, type StartedApiKeys } from '../../src/apikeys-service.js';
// Test-only: the real identity service in-process (principals for the gateway, owner names).
import { loadIdentityConfig } from '../../../identity/src/config.js';
import { startIdentity, type StartedIdentity } from '../../../identity/src/identity-service.js';

export interface HttpResult {
  status: number;
  body: { code: number; data: any; msg: string };
}

export interface RequestOptions {
  json?: unknown;
  /** A raw body with its content type (malformed-body tests). */
  raw?: { body: string; contentType: string };
  token?: string;
  headers?: Record<string, string>;
}

export type Requester = (method: string, path: string, options?: RequestOptions) => Promise<HttpResult>;

export interface TestUser {
  id: string;
  username: string;
  token: string;
}

export interface ApiKeysHarness {
  apikeys: StartedApiKeys;
  identity: StartedIdentity;
  gateway: Gateway;
  identityAddress: string;
  apikeysAddress: string;
  redisPrefix: string;
  request: Requester;
  createUser(options?: { roles?: string[]; superuser?: boolean; isActive?: boolean }): Promise<TestUser>;
  stop(): Promise<void>;
}

export const testLogger = createLogger('apikeys-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** fetch → envelope, for the harness gateway and for extra gateway apps a test builds. */
export function requester(baseUrl: string): Requester {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      throw new Error(`${method} ${path}: not an envelope (${response.status}): ${text.slice(0, 200)}`);
    }
  };
}

/**
 * The real apikeys service and the real identity service, each on its own fresh database, served
 * over gRPC on free ports, behind the real gateway (route table, JWT, API-key verifier, Redis).
 * apikeys gets unique Redis keys and a unique agent-directory consumer group.
 */
export async function startApiKeysHarness(env: Record<string, string> = {}): Promise<ApiKeysHarness> {
  const identityDb = uniqueName('apikeys_idt').replace(/-/g, '_');
  const apikeysDb = uniqueName('apikeys_t').replace(/-/g, '_');
  await ensureDatabase(stackEnv.postgresAdminUrl, identityDb);
  await ensureDatabase(stackEnv.postgresAdminUrl, apikeysDb);
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    GRPC_PORT: '50099', // unused: the harness binds its own servers on free ports
  };
  const identity = await startIdentity(
    loadIdentityConfig({
      ...common,
      DATABASE_URL: withDatabase(stackEnv.postgresAdminUrl, identityDb),
      QUEUE_TOPIC_PREFIX: `${uniqueName('t')}.`,
    }),
    testLogger,
    'test',
  );
  const identityGrpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: identity.services,
  });
  const identityAddress = `127.0.0.1:${identityGrpc.port}`;
  const redisPrefix = `${uniqueName('apikeys-t')}:`;
  const apikeys = await startApiKeys(
    loadApiKeysConfig({
      ...common,
      DATABASE_URL: withDatabase(stackEnv.postgresAdminUrl, apikeysDb),
      IDENTITY_GRPC_ADDR: identityAddress,
      REDIS_KEY_PREFIX: redisPrefix,
      AGENT_DIRECTORY_GROUP: uniqueName('test.apikeys.agent-directory'),
      ...env,
    }),
    testLogger,
    'test',
  );
  const apikeysGrpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: apikeys.services,
  });
  const apikeysAddress = `127.0.0.1:${apikeysGrpc.port}`;
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      IDENTITY_GRPC_ADDR: identityAddress,
      APIKEYS_GRPC_ADDR: apikeysAddress,
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);

  async function createUser(options: { roles?: string[]; superuser?: boolean; isActive?: boolean } = {}) {
    const { pool, tokens } = identity.dependencies;
    const username = `u_${randomUUID().slice(0, 8)}`;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO users (username, email, password_hash, is_superuser, is_active, approval_status, email_verified)
       VALUES ($1, $2, 'not-a-real-hash', $3, $4, 'approved', true) RETURNING id`,
      [username, `${username}@example.test`, options.superuser ?? false, options.isActive ?? true],
    );
    const id = rows[0]!.id;
    await pool.query(
      'INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2::text[])',
      [id, options.roles ?? ['User']],
    );
    const issued = await tokens.issue(id, 'access', 3600);
    return { id, username, token: issued.token };
  }

  return {
    apikeys,
    identity,
    gateway,
    identityAddress,
    apikeysAddress,
    redisPrefix,
    request: requester(http.baseUrl),
    createUser,
    async stop() {
      await http.close();
      await gateway.close();
      await apikeysGrpc.shutdown(1_000);
      await apikeys.stop();
      await identityGrpc.shutdown(1_000);
      await identity.stop();
      await dropDatabase(stackEnv.postgresAdminUrl, apikeysDb);
      await dropDatabase(stackEnv.postgresAdminUrl, identityDb);
    },
  };
}
