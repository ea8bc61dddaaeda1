import type { Gateway } from '@platform/gateway';
import { checkHealth } from '@platform/grpc';
import { closeMongo, connectMongo } from '@platform/mongo';
import {
  listen,
  requester,
  startHttpReceiver,
  startIdentityProcess,
  startServiceProcess,
  uniqueName,
  waitUntil,
  type HttpReceiver,
  type IdentityProcess,
  type IdentityUser,
  type Requester,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/grpc/notifications-grpc.js';
import { gatewayInFrontOf, notificationsChildEnv, privateMongoUrl } from './support/child-process-env.js';
import { testLogger } from './support/harness.js';

// PROCESS_ROLE (deploy/README.md "API and workers apart"): the BUILT service as two child
// processes on one store and queue. The `api` process takes the notification and queues its
// delivery but delivers nothing; the `worker` process delivers it and serves only grpc.health.v1.
let identity: IdentityProcess;
let receiver: HttpReceiver;
let admin: IdentityUser;
let gateway: Gateway;
let http: RunningHttp;
let request: Requester;
const processes: ServiceProcess[] = [];
const prefix = `${uniqueName('nrole')}.`;
const mongoUrl = privateMongoUrl('notif_role');

const startNotifications = async (role: string) => {
  const started = await startServiceProcess('notifications', {
    env: {
      ...notificationsChildEnv({ prefix, mongoUrl, identityAddress: identity.address }),
      PROCESS_ROLE: role,
    },
  });
  processes.push(started);
  return started;
};

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: 'ok' });
  identity = await startIdentityProcess();
  const api = await startNotifications('api');
  gateway = gatewayInFrontOf({ identity: identity.address, notifications: api.address });
  http = await listen(gateway.app);
  request = requester(http.baseUrl);
  admin = await identity.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  const settings = await request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: { webhook_enabled: true, webhook_url: `${receiver.url}/hook`, webhook_secret: 'roles' },
  });
  expect(settings.body.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await http?.close();
  await gateway?.close();
  await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
  await identity?.stop();
  await receiver?.close();
  const connection = await connectMongo(mongoUrl, { logger: testLogger });
  await connection.dropDatabase().catch(() => undefined);
  await closeMongo(connection);
});

describe('notifications PROCESS_ROLE', () => {
  it('api takes the notification and delivers nothing; a worker delivers it and serves no domain RPC', async () => {
    // Retried while the api process's settings cache still holds the settings before the PUT.
    const title = uniqueName('role-title');
    await waitUntil(
      async () => {
        const response = await request('POST', '/admin/notifications', {
          token: admin.token,
          json: { scope: 'global', type: 'test.roles', title, content: 'c', notify_channels: ['webhook'] },
        });
        return response.body.code === 0 ? response : undefined;
      },
      15_000,
      'the webhook channel never became usable',
      250,
    );
    // A process with delivery workers delivers within a few hundred ms; the worker's start-up
    // below (seconds) is the api process's chance to deliver if it had any.
    const worker = await startNotifications('worker');
    expect(receiver.requests).toHaveLength(0);
    expect(await checkHealth(worker.address, '')).toBe('SERVING');
    await expect(checkHealth(worker.address, SERVICE_NAME)).rejects.toSatisfy(
      (error) => (error as { code?: number }).code === 5, // NOT_FOUND: the API is not served here
    );
    const [delivered] = await receiver.waitForRequests(1, 20_000);
    expect(delivered!.path).toBe('/hook');
    expect(JSON.parse(delivered!.body.toString('utf8'))).toMatchObject({ event: 'notification', title });
  });
});
