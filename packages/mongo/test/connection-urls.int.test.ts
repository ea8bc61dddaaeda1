// The MongoDB URL forms of deploy/README.md ("Connection URLs") against real servers: a seed list
// with a dead host first, and mongodb+srv:// resolved through a DNS server this test runs (SRV + TXT
// + A records for a test domain), both through connectMongo (mongoose), as the services connect.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import { closeMongo, connectMongo, type Connection } from '../src/index.js';
import { startDnsServer, useTestDns, type DnsServer } from '@platform/testing';
import {
  REPLICA_SET,
  startFerretReplica,
  unusedPort,
  type FerretReplica,
} from './support/ferretdb-replica.js';

const STACK_MONGO = new URL(process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:57017/platform_test');
const logger = createLogger('mongo-urls-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const run = randomUUID().slice(0, 8);
const database = `mongo_urls_${run}`;
const domain = `rt-${run}.test`;

/** Writes a document and reads it back: the connection reached a writable server. */
async function roundTrip(connection: Connection, label: string): Promise<unknown> {
  const collection = connection.collection('forms');
  await collection.insertOne({ label });
  return (await collection.findOne({ label }, { projection: { _id: 0 } }))?.label;
}

describe('MongoDB URL forms', () => {
  let replica: FerretReplica;
  let dnsServer: DnsServer;
  let restoreDns: () => void;
  let deadPort: number;
  const connections: Connection[] = [];
  const connect = async (url: string) => {
    const connection = await connectMongo(url, { logger, serverSelectionTimeoutMs: 10_000 });
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    [replica, deadPort] = await Promise.all([startFerretReplica(), unusedPort()]);
    const local = { type: 'A' as const, address: '127.0.0.1' };
    dnsServer = await startDnsServer({
      [`_mongodb._tcp.cluster.${domain}`]: [
        { type: 'SRV', priority: 0, weight: 0, port: deadPort, target: `db0.${domain}` },
        { type: 'SRV', priority: 0, weight: 0, port: replica.port, target: `db1.${domain}` },
      ],
      [`cluster.${domain}`]: [{ type: 'TXT', text: `replicaSet=${REPLICA_SET}&authSource=admin` }],
      [`_mongodb._tcp.stack.${domain}`]: [
        {
          type: 'SRV',
          priority: 0,
          weight: 0,
          port: Number(STACK_MONGO.port || 27017),
          target: `db.${domain}`,
        },
      ],
      [`stack.${domain}`]: [{ type: 'TXT', text: 'authSource=admin' }],
      [`db0.${domain}`]: [local],
      [`db1.${domain}`]: [local],
      [`db.${domain}`]: [{ type: 'A', address: STACK_MONGO.hostname }],
    });
    restoreDns = useTestDns(dnsServer.address, domain);
  });

  afterAll(async () => {
    restoreDns?.();
    for (const connection of connections) {
      await connection.dropDatabase().catch(() => undefined);
      await closeMongo(connection, true);
    }
    await Promise.all([dnsServer?.close(), replica?.stop()]);
  });

  it('connects through a seed list whose first host is dead', async () => {
    const url = `mongodb://127.0.0.1:${deadPort},127.0.0.1:${replica.port}/${database}?replicaSet=${REPLICA_SET}`;
    expect(await roundTrip(await connect(url), 'seed list')).toBe('seed list');
  });

  it('resolves mongodb+srv:// through SRV and TXT records, past a dead target', async () => {
    const connection = await connect(`mongodb+srv://cluster.${domain}/${database}?tls=false`);
    expect(await roundTrip(connection, 'srv')).toBe('srv');
    expect(dnsServer.questions).toEqual(
      expect.arrayContaining([`SRV _mongodb._tcp.cluster.${domain}`, `TXT cluster.${domain}`]),
    );
    // the TXT record's replicaSet reached the driver
    expect(connection.getClient().options.replicaSet).toBe(REPLICA_SET);
  });

  it('resolves mongodb+srv:// to the local stack FerretDB (one SRV target, a standalone server)', async () => {
    const connection = await connect(`mongodb+srv://stack.${domain}/${database}_stack?tls=false`);
    expect(await roundTrip(connection, 'stack')).toBe('stack');
    expect(dnsServer.questions).toContain(`SRV _mongodb._tcp.stack.${domain}`);
  });

  it('fails with the DNS answer when the SRV name does not exist', async () => {
    await expect(
      connectMongo(`mongodb+srv://missing.${domain}/${database}?tls=false`, {
        logger,
        serverSelectionTimeoutMs: 2000,
      }),
    ).rejects.toThrow(/ENOTFOUND|querySrv/);
  });
});
