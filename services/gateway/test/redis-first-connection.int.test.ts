// The gateway's Redis client fails fast (no offline queue), which made a gateway that had just
// started answer its first requests 503 while the connection was still being made. firstConnection
// holds requests until that first connection (bounded), against the real Redis behind a TCP proxy
// that accepts slowly.
import { stackEnv } from '@platform/testing';
import { Redis } from 'ioredis';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { firstConnection } from '../src/auth/redis-first-connection.js';

const target = new URL(stackEnv.redisUrl);
const sockets = new Set<net.Socket>();

/** A proxy to the stack's Redis that waits `delayMs` before connecting each client through. */
async function slowProxy(delayMs: number): Promise<net.Server> {
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    setTimeout(() => {
      const upstream = net.connect(Number(target.port), target.hostname, () => {
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const clients: Redis[] = [];
const servers: net.Server[] = [];
function failFastClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const client of clients) client.disconnect();
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('firstConnection', () => {
  it('a slow first connection: commands wait for it instead of failing', async () => {
    const proxy = await slowProxy(400);
    servers.push(proxy);
    const url = `redis://127.0.0.1:${(proxy.address() as net.AddressInfo).port}/0`;
    // the failure it prevents: without waiting, a fail-fast client refuses at once
    await expect(failFastClient(url).get('anything')).rejects.toThrow(/enableOfflineQueue|writeable/i);

    const client = failFastClient(url);
    const started = firstConnection(client, 3_000);
    const before = Date.now();
    await started();
    expect(Date.now() - before).toBeGreaterThanOrEqual(300);
    await expect(client.ping()).resolves.toBe('PONG');
    await started(); // afterwards at once
  });

  it('a Redis that is down from the start: the wait ends at the bound, then failing fast is back', async () => {
    const client = failFastClient('redis://127.0.0.1:1/0');
    const started = firstConnection(client, 300);
    const before = Date.now();
    await started();
    expect(Date.now() - before).toBeGreaterThanOrEqual(250);
    await expect(client.get('anything')).rejects.toThrow();
  });
});
