import { randomUUID } from 'node:crypto';
import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import {
  createOutgoingTrust,
  createServiceClient,
  startGrpcServer,
  type RunningGrpcServer,
} from '@platform/grpc';
import { createLogger } from '@platform/logger';
import {
  freshDatabase,
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  testClock,
  type IdentityProcess,
  type IdentityUser,
  type Requester,
  type RunningHttp,
  type TestClock,
} from '@platform/testing';
import { serviceTrust } from '@platform/runtime';
import { loadModelsConfig } from '../../src/config.js';
import { startModels, type StartedModels } from '../../src/models-service.js';

export const testLogger = createLogger('models-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export type QuotaClient = ReturnType<typeof quotaClientFor>;

function quotaClientFor(address: string, service: string) {
  return createServiceClient(
    grantsV1.ModelQuotaServiceService,
    'platform.models.v1.ModelQuotaService',
    address,
    {
      defaultTimeoutMs: 15_000,
      credentials: createOutgoingTrust({
        service,
        serviceSigningKey: stackEnv.serviceSigningKey(service),
      }).to('models'),
    },
  );
}

export interface GrantsHarness {
  models: StartedModels;
  identity: IdentityProcess;
  gateway: Gateway;
  modelsAddress: string;
  clock: TestClock;
  request: Requester;
  /** ModelQuotaService as the agent runtime (authorize, record) and as observability (reads). */
  runtime: QuotaClient;
  observability: QuotaClient;
  quotaClient(service: string): QuotaClient;
  createUser: IdentityProcess['createUser'];
  /** A model row as the admin API would store it (model CRUD is tested apart). */
  insertModel(fields?: Partial<ModelFields>): Promise<string>;
  /** A grant row as POST /admin/teams/{id}/models stores it (for quota tests that need no team). */
  insertGrant(teamId: string, modelId: string, grant?: GrantFields): Promise<void>;
  /** A team created through the gateway by `owner` (OWNER), with `admins` added as ADMIN, `members` as MEMBER. */
  createTeam(owner: IdentityUser, admins?: IdentityUser[], members?: IdentityUser[]): Promise<string>;
  stop(): Promise<void>;
}

export interface GrantFields {
  is_enabled?: boolean;
  token_quota?: number | null;
  request_quota?: number | null;
}

export interface ModelFields {
  name: string;
  provider: string;
  model_type: string;
  is_enabled: boolean;
  is_default: boolean;
  sort_order: number;
  capabilities: Record<string, unknown> | null;
  context_length: number | null;
  base_url: string | null;
}

/**
 * The real models service in-process on a fresh database (gRPC on a free port), the real identity
 * service as a child process (teams, the directory), and the real gateway in front of both.
 */
export async function startGrantsHarness(): Promise<GrantsHarness> {
  const identity = await startIdentityProcess();
  const database = await freshDatabase('models_t');
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('models'),
    GRPC_PORT: '50099',
  };
  const clock = testClock();
  const config = loadModelsConfig({
    ...common,
    DATABASE_URL: database.url,
    IDENTITY_GRPC_ADDR: identity.address,
  });
  const models = await startModels(config, testLogger, 'test', clock.date);
  const server: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: models.services,
    trust: serviceTrust('models', config),
  });
  const modelsAddress = `127.0.0.1:${server.port}`;
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: modelsAddress,
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  const request = requester(http.baseUrl);
  const clients: QuotaClient[] = [];
  const quotaClient = (service: string) => {
    const client = quotaClientFor(modelsAddress, service);
    clients.push(client);
    return client;
  };

  return {
    models,
    identity,
    gateway,
    modelsAddress,
    clock,
    request,
    runtime: quotaClient('agent-runtime'),
    observability: quotaClient('observability'),
    quotaClient,
    createUser: (options) => identity.createUser(options),
    async insertModel(fields = {}) {
      const { rows } = await models.pool.query<{ id: string }>(
        `INSERT INTO models (name, provider, model_id, model_type, is_enabled, is_default, sort_order,
                             capabilities, context_length, base_url, api_key_sealed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'sealed-secret') RETURNING id`,
        [
          fields.name ?? `model-${randomUUID().slice(0, 8)}`,
          fields.provider ?? 'openai',
          'gpt-test',
          fields.model_type ?? 'chat',
          fields.is_enabled ?? true,
          fields.is_default ?? false,
          fields.sort_order ?? 0,
          fields.capabilities === undefined ? { streaming: true } : fields.capabilities,
          fields.context_length === undefined ? 8192 : fields.context_length,
          fields.base_url === undefined ? 'https://api.openai.com/v1' : fields.base_url,
        ],
      );
      return rows[0]!.id;
    },
    async insertGrant(teamId, modelId, grant = {}) {
      await models.pool.query(
        `INSERT INTO team_model_grants (team_id, model_id, is_enabled, token_quota, request_quota)
         VALUES ($1, $2, $3, $4, $5)`,
        [teamId, modelId, grant.is_enabled ?? true, grant.token_quota ?? null, grant.request_quota ?? null],
      );
    },
    async createTeam(owner, admins = [], members = []) {
      const created = await request('POST', '/teams', {
        token: owner.token,
        json: { name: `team-${randomUUID().slice(0, 8)}` },
      });
      if (created.body.code !== 0) throw new Error(`team not created: ${JSON.stringify(created.body)}`);
      const teamId: string = created.body.data.id;
      for (const [users, role] of [
        [admins, 'ADMIN'],
        [members, 'MEMBER'],
      ] as const) {
        for (const user of users) {
          const added = await request('POST', `/teams/${teamId}/members`, {
            token: owner.token,
            json: { user_id: user.id, role },
          });
          if (added.body.code !== 0) throw new Error(`member not added: ${JSON.stringify(added.body)}`);
        }
      }
      return teamId;
    },
    async stop() {
      for (const client of clients) client.close();
      await http.close();
      await gateway.close();
      await server.shutdown(1_000);
      await models.stop();
      await database.drop();
      await identity.stop();
    },
  };
}
