// The notifications service (its built main.js, as it runs in production) given a mongodb+srv://
// MONGO_URL: it resolves the SRV and TXT records through the pod's resolver — here a DNS server this
// test runs, made the child's resolver for the test domain by a preload — and serves from the
// FerretDB the SRV record names (the local stack's). deploy/README.md, "Connection URLs".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMongo, connectMongo, type Connection } from '@platform/mongo';
import {
  DNS_PRELOAD,
  stackEnv,
  startDnsServer,
  startServiceProcess,
  uniqueName,
  type DnsServer,
  type ServiceProcess,
} from '@platform/testing';
import { testLogger } from './support/harness.js';

const stackMongo = new URL(stackEnv.mongoUrl);
const domain = `${uniqueName('srv')}.test`;
const database = uniqueName('notif_srv').replace(/-/g, '_');

describe('notifications with a mongodb+srv:// MONGO_URL', () => {
  let dnsServer: DnsServer;
  let notifications: ServiceProcess;
  let direct: Connection;

  beforeAll(async () => {
    dnsServer = await startDnsServer({
      [`_mongodb._tcp.cluster.${domain}`]: [
        {
          type: 'SRV',
          priority: 0,
          weight: 0,
          port: Number(stackMongo.port || 27017),
          target: `db.${domain}`,
        },
      ],
      [`cluster.${domain}`]: [{ type: 'TXT', text: 'authSource=admin' }],
      [`db.${domain}`]: [{ type: 'A', address: stackMongo.hostname }],
    });
    const prefix = `${uniqueName('nsrv')}.`;
    notifications = await startServiceProcess('notifications', {
      env: {
        MONGO_URL: `mongodb+srv://cluster.${domain}/${database}?tls=false`,
        NODE_OPTIONS: `--import=${DNS_PRELOAD}`,
        TEST_DNS_SERVER: dnsServer.address,
        TEST_DNS_DOMAIN: domain,
        IDENTITY_GRPC_ADDR: '127.0.0.1:1',
        QUEUE_TOPIC_PREFIX: prefix,
        EVENTS_TOPIC_PREFIX: prefix,
        NOTIFICATION_EVENTS_GROUP: `${prefix}notification-events`,
        REDIS_KEY_PREFIX: `${prefix}notifications:`,
      },
    });
    direct = await connectMongo(stackEnv.mongoUrl.replace(/\/[^/]*$/, `/${database}`), {
      logger: testLogger,
    });
  });

  afterAll(async () => {
    await notifications?.stop();
    await direct?.dropDatabase().catch(() => undefined);
    if (direct) await closeMongo(direct, true);
    await dnsServer?.close();
  });

  it('asks for the SRV and TXT records and serves from the server they name', async () => {
    expect(dnsServer.questions).toEqual(
      expect.arrayContaining([
        `SRV _mongodb._tcp.cluster.${domain}`,
        `TXT cluster.${domain}`,
        `A db.${domain}`,
      ]),
    );
    // Serving means it connected and built its indexes: in the database the URL named, on the
    // stack's FerretDB, found there without any DNS.
    const collections = (await direct.db!.listCollections().toArray()).map((c) => c.name);
    expect(collections.length).toBeGreaterThan(0);
  });
});
