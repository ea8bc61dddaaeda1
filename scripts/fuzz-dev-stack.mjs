// Starts identity + apikeys + workflows (each on a fresh database) and the real gateway in this process, with
// the gateway on FUZZ_HTTP_PORT (default 18080), so the API fuzzer can run without touching the
// shared platform on :8080. Needs `pnpm run build` and the local stack (deploy/local/env.sh).
//   source deploy/local/env.sh && node scripts/fuzz-dev-stack.mjs   # then, in another shell:
//   GATEWAY_URL=http://127.0.0.1:18080 IDENTITY_DATABASE_URL=<printed> bash scripts/fuzz-api.sh
import { dropDatabase, ensureDatabase, withDatabase } from '../packages/db/dist/index.js';
import { startGrpcServer } from '../packages/grpc/dist/index.js';
import { serviceTrust } from '../packages/runtime/dist/index.js';
import { createLogger } from '../packages/logger/dist/index.js';
import { stackEnv, uniqueName } from '../packages/testing/dist/index.js';
import { loadIdentityConfig } from '../services/identity/dist/config.js';
import { startIdentity } from '../services/identity/dist/identity-service.js';
import { loadApiKeysConfig } from '../services/apikeys/dist/config.js';
import { startApiKeys } from '../services/apikeys/dist/apikeys-service.js';
import { loadWorkflowsConfig } from '../services/workflows/dist/config.js';
import { startWorkflows } from '../services/workflows/dist/workflows-service.js';
import { buildGateway, loadGatewayConfig } from '../services/gateway/dist/index.js';

const port = Number(process.env.FUZZ_HTTP_PORT ?? 18080);
const logger = createLogger('fuzz-stack', process.env.FUZZ_LOG_LEVEL ?? 'warn');
const identityDb = uniqueName('fuzz_idt').replace(/-/g, '_');
const apikeysDb = uniqueName('fuzz_ak').replace(/-/g, '_');
await ensureDatabase(stackEnv.postgresAdminUrl, identityDb);
await ensureDatabase(stackEnv.postgresAdminUrl, apikeysDb);
const workflowsDb = uniqueName('fuzz_wf').replace(/-/g, '_');
await ensureDatabase(stackEnv.postgresAdminUrl, workflowsDb);
const common = {
  ...process.env,
  REDIS_URL: stackEnv.redisUrl,
  KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
  SECRET_KEY: stackEnv.secretKey,
  GRPC_PORT: '50099', // unused: servers bind free ports below
};
// Each service signs its internal calls with its own key, as deploy/local/services.sh gives it.
const signingKeyOf = (name) => ({
  SERVICE_SIGNING_PRIVATE_KEY: process.env[`SERVICE_SIGNING_PRIVATE_KEY_${name}`],
});
const identityUrl = withDatabase(stackEnv.postgresAdminUrl, identityDb);
const identityConfig = loadIdentityConfig({
  ...common,
  DATABASE_URL: identityUrl,
  QUEUE_TOPIC_PREFIX: `${uniqueName('fz')}.`,
  // The fuzzer's live-state sidecar is a plain-http issuer on loopback (scripts/fuzz-live-state.mjs).
  SSO_ALLOW_INSECURE_ISSUERS: 'true',
});
const identity = await startIdentity(identityConfig, logger, 'fuzz');
const identityGrpc = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  logger,
  services: identity.services,
  trust: serviceTrust('identity', identityConfig),
});
const workflowsConfig = loadWorkflowsConfig({
  ...common,
  ...signingKeyOf('WORKFLOWS'),
  DATABASE_URL: withDatabase(stackEnv.postgresAdminUrl, workflowsDb),
  IDENTITY_GRPC_ADDR: `127.0.0.1:${identityGrpc.port}`,
});
const workflows = await startWorkflows(workflowsConfig, logger, 'fuzz');
const workflowsGrpc = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  logger,
  services: workflows.services,
  trust: serviceTrust('workflows', workflowsConfig),
});
const apikeysConfig = loadApiKeysConfig({
  ...common,
  ...signingKeyOf('APIKEYS'),
  DATABASE_URL: withDatabase(stackEnv.postgresAdminUrl, apikeysDb),
  IDENTITY_GRPC_ADDR: `127.0.0.1:${identityGrpc.port}`,
  WORKFLOWS_GRPC_ADDR: `127.0.0.1:${workflowsGrpc.port}`,
  REDIS_KEY_PREFIX: `${uniqueName('fuzz-ak')}:`,
  AGENT_DIRECTORY_GROUP: uniqueName('fuzz.apikeys.agent-directory'),
});
const apikeys = await startApiKeys(apikeysConfig, logger, 'fuzz');
const apikeysGrpc = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  logger,
  services: apikeys.services,
  trust: serviceTrust('apikeys', apikeysConfig),
});
const gateway = buildGateway(
  loadGatewayConfig({
    ...common,
    ...signingKeyOf('GATEWAY'),
    IDENTITY_GRPC_ADDR: `127.0.0.1:${identityGrpc.port}`,
    APIKEYS_GRPC_ADDR: `127.0.0.1:${apikeysGrpc.port}`,
    WORKFLOWS_GRPC_ADDR: `127.0.0.1:${workflowsGrpc.port}`,
  }),
  logger,
  'fuzz',
);
const server = gateway.app.listen(port, '127.0.0.1', () => {
  process.stdout.write(`gateway http://127.0.0.1:${port}\nIDENTITY_DATABASE_URL=${identityUrl}\n`);
});

async function stop() {
  server.close();
  await gateway.close();
  await apikeysGrpc.shutdown(1_000);
  await apikeys.stop();
  await workflowsGrpc.shutdown(1_000);
  await workflows.stop();
  await identityGrpc.shutdown(1_000);
  await identity.stop();
  await dropDatabase(stackEnv.postgresAdminUrl, apikeysDb);
  await dropDatabase(stackEnv.postgresAdminUrl, workflowsDb);
  await dropDatabase(stackEnv.postgresAdminUrl, identityDb);
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
