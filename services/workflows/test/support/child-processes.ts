import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { groupIsStable, workerGroup } from '@platform/kafka';
import { waitUntil } from '@platform/testing';
import type { WorkflowsHarness } from './harness.js';

/**
 * The environment of a BUILT workflows child process that shares the harness's database, queues
 * and identity (another replica, a worker); `extra` sets its role, lease and the like.
 */
export function workflowsChildEnv(
  harness: WorkflowsHarness,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: harness.database.url,
    QUEUE_TOPIC_PREFIX: harness.config.QUEUE_TOPIC_PREFIX,
    IDENTITY_GRPC_ADDR: harness.identity.address,
    MODELS_GRPC_ADDR: '127.0.0.1:50064',
    ...extra,
  };
}

/**
 * A local HTTP endpoint for http_request nodes, put on the site's workflow allowlist by an admin
 * (`adminToken`) so runs may call it.
 */
export async function startAllowedSink(
  harness: WorkflowsHarness,
  adminToken: string,
  handler: RequestListener,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const saved = await harness.request('PUT', '/admin/site-settings', {
    token: adminToken,
    json: { workflow_http_allowlist: [origin] },
  });
  if (saved.body.code !== 0) throw new Error(`allowlisting ${origin}: ${JSON.stringify(saved.body)}`);
  return { server, origin };
}

/**
 * Waits until `members` processes have joined the harness's workflow-queue consumer group: a
 * worker reports healthy before Kafka has given it partitions.
 */
export async function waitForQueueWorkers(harness: WorkflowsHarness, members: number): Promise<void> {
  const group = workerGroup('workflow', harness.config.QUEUE_TOPIC_PREFIX);
  await waitUntil(
    async () =>
      (await groupIsStable(harness.workflows.dependencies.kafka, group, members)) ? true : undefined,
    60_000,
    `${members} workers did not join the workflow queue group`,
    250,
  );
}
