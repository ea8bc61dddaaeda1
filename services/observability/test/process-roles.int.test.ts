import { checkHealth } from '@platform/grpc';
import { createKafka, groupIsStable, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { stackEnv, startServiceProcess, uniqueName, waitUntil, type ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/grpc/observability-grpc.js';

// PROCESS_ROLE (deploy/README.md "API and workers apart"): the BUILT service as two child
// processes on one database. The `api` process serves the API and joins no consumer group; the
// `worker` process runs the fact and agent-directory consumers and serves only grpc.health.v1.
const processes: ServiceProcess[] = [];
let kafka: KafkaClient;
const groups = {
  TELEMETRY_TOPIC_PREFIX: `${uniqueName('obs-role')}.`,
  TELEMETRY_GROUP: uniqueName('test.obs-role.telemetry'),
  AGENT_DIRECTORY_GROUP: uniqueName('test.obs-role.agent-directory'),
};

const start = async (role: string, databaseUrl?: string) => {
  const started = await startServiceProcess('observability', {
    env: {
      PROCESS_ROLE: role,
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
      MODELS_GRPC_ADDR: '127.0.0.1:1',
      ...groups,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  processes.push(started);
  return started;
};

beforeAll(() => {
  kafka = createKafka({
    brokers: stackEnv.kafkaBrokers,
    clientId: 'observability-roles-test',
    logger: createLogger('observability-roles-test', 'silent'),
  });
});

afterAll(async () => {
  // The worker first: it shares the api process's database, which the api's stop drops.
  for (const started of processes.reverse()) await started.stop().catch(() => undefined);
  await kafka?.disconnect();
});

describe('observability PROCESS_ROLE', () => {
  it('api joins no consumer group; the worker runs the consumers and serves only health', async () => {
    const api = await start('api');
    expect(await checkHealth(api.address, SERVICE_NAME)).toBe('SERVING');
    // The worker's start-up (seconds) is the api process's chance to join if it consumed at all.
    const worker = await start('worker', api.database.url);
    expect(await checkHealth(worker.address, '')).toBe('SERVING');
    await expect(checkHealth(worker.address, SERVICE_NAME)).rejects.toSatisfy(
      (error) => (error as { code?: number }).code === 5, // NOT_FOUND: the API is not served here
    );
    // One member in each group: the worker's consumer, never the api process.
    for (const group of [groups.TELEMETRY_GROUP, groups.AGENT_DIRECTORY_GROUP]) {
      await waitUntil(
        async () => ((await groupIsStable(kafka, group, 1)) ? true : undefined),
        30_000,
        `${group} never had exactly one member`,
        250,
      );
    }
  });
});
