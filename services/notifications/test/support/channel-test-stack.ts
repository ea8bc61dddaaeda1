import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { createProducer } from '@platform/kafka';
import { createOutgoingTrust, startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { serviceTrust } from '@platform/runtime';
import { createSettingsClient, type SettingsClient } from '@platform/settings-client';
import {
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  type IdentityProcess,
  type Requester,
  type RunningHttp,
} from '@platform/testing';
import { identityDirectory } from '../../src/adapters/identity-access.js';
import { createDelivery, type Delivery } from '../../src/delivery-area.js';
import { channelTestsGrpc } from '../../src/grpc/channel-tests-grpc.js';
import { logger, startDeliveryHarness, type DeliveryHarness } from './delivery-harness.js';

/**
 * The stack of the channel-test routes: identity (its build output) holding the site settings,
 * the notifications delivery side in-process answering ChannelTestService, and the real gateway.
 */
export interface ChannelTestStack {
  identity: IdentityProcess;
  h: DeliveryHarness;
  delivery: Delivery;
  request: Requester;
  stop(): Promise<void>;
}

export async function startChannelTestStack(): Promise<ChannelTestStack> {
  const identity = await startIdentityProcess();
  const h = await startDeliveryHarness();
  const trust = createOutgoingTrust({
    service: 'notifications',
    serviceSigningKey: h.config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const settings: SettingsClient = createSettingsClient({
    address: identity.address,
    trust,
    logger,
    ttlMs: 0,
  });
  const delivery = createDelivery({
    connection: h.connection,
    redis: h.redis,
    kafka: h.kafka,
    producer: createProducer(h.kafka),
    logger,
    config: h.config,
    settings,
    directory: identityDirectory(identity.address, trust.to('identity')),
  });
  const grpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [channelTestsGrpc(delivery, h.config.NOTIFICATION_PAGE_WINDOW)],
    trust: serviceTrust('notifications', h.config),
  });
  const gateway: Gateway = buildGateway(
    loadGatewayConfig({
      ...process.env,
      TASK_SEAL_KEY: stackEnv.taskSealKey,
      ...stackEnv.serviceTrustEnv('gateway'),
      REDIS_URL: stackEnv.redisUrl,
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:1',
      NOTIFICATIONS_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
      MODELS_GRPC_ADDR: '127.0.0.1:1',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:1',
    }),
    logger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  return {
    identity,
    h,
    delivery,
    request: requester(http.baseUrl),
    async stop() {
      await http.close();
      await gateway.close();
      await grpc.shutdown(1_000);
      await settings.stop();
      await h.stop();
      await identity.stop();
    },
  };
}
