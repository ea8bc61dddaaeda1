import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundBlockedError, OutboundHttpError, outboundRequest } from '../src/index.js';
import { startServer, type LoopbackServer } from './support/loopback-server.js';

async function failure(promise: Promise<unknown>): Promise<OutboundHttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundHttpError);
  return error as OutboundHttpError;
}

describe('outbound guard: limits', () => {
  let server: LoopbackServer;
  /** Set when the server saw the client hang up before it finished streaming. */
  let streamCut = false;
  const timers = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/declared-large') {
        res.writeHead(200, { 'content-length': '2048' }).end('x'.repeat(2048));
      } else if (path === '/exact') {
        res.end('y'.repeat(1024));
      } else if (path === '/stream') {
        // Chunked, no length, paced: up to 400 KiB over ~2 s unless the client hangs up first.
        let sent = 0;
        res.on('close', () => (streamCut = !res.writableFinished));
        const push = (): void => {
          if (res.destroyed) return;
          if (sent >= 400) return void res.end();
          sent += 1;
          res.write('z'.repeat(1024));
          timers.add(setTimeout(push, 5));
        };
        push();
      } else if (path === '/silent') {
        timers.add(setTimeout(() => res.end('late'), 5_000)); // headers never come in time
      } else if (path === '/trickle') {
        res.writeHead(200);
        res.write('a');
        timers.add(setTimeout(() => res.end('b'), 5_000));
      } else {
        res.end('ok');
      }
    });
  });
  afterAll(async () => {
    timers.forEach(clearTimeout);
    await server.close();
  });
  const policy = () => ({ allowlist: [server.origin], maxResponseBytes: 1024 });

  it('refuses a response whose declared length is over the cap', async () => {
    const error = await failure(outboundRequest(`${server.origin}/declared-large`, {}, policy()));
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect(error.reason).toBe('response_too_large');
    expect(error.message).toContain('1024-byte limit');
  });

  it('cuts a streamed body once it passes the cap', async () => {
    const error = await failure(outboundRequest(`${server.origin}/stream`, {}, policy()));
    expect(error.reason).toBe('response_too_large');
    await expect.poll(() => streamCut).toBe(true);
  });

  it('accepts a body exactly at the cap', async () => {
    const response = await outboundRequest(`${server.origin}/exact`, {}, policy());
    expect(response.body.byteLength).toBe(1024);
  });

  it('times out a server that never answers', async () => {
    const error = await failure(
      outboundRequest(`${server.origin}/silent`, {}, { ...policy(), timeoutMs: 200 }),
    );
    expect(error).toMatchObject({ reason: 'timeout' });
    expect(error.message).toContain('200 ms');
  });

  it('times out a body that trickles past the total time', async () => {
    const error = await failure(
      outboundRequest(`${server.origin}/trickle`, {}, { ...policy(), timeoutMs: 200 }),
    );
    expect(error.reason).toBe('timeout');
  });

  it('times out the connect phase (a resolver that never answers)', async () => {
    const origin = 'http://hanging.example:81';
    const error = await failure(
      outboundRequest(
        `${origin}/`,
        {},
        {
          allowlist: [origin],
          connectTimeoutMs: 150,
          timeoutMs: 10_000,
          resolve: () => new Promise(() => undefined),
        },
      ),
    );
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('connect (150 ms)');
  });

  it('reports a refused connection as connection_failed, not as a refusal', async () => {
    const closed = await startServer();
    const origin = closed.origin;
    await closed.close();
    const error = await failure(outboundRequest(`${origin}/`, {}, { allowlist: [origin] }));
    expect(error).not.toBeInstanceOf(OutboundBlockedError);
    expect(error.reason).toBe('connection_failed');
  });

  it('reports a header Node refuses (a pasted key with a newline) as invalid_request', async () => {
    const error = await failure(
      outboundRequest(`${server.origin}/`, { headers: { authorization: 'Bearer k\r\nx-evil: 1' } }, policy()),
    );
    expect(error.reason).toBe('invalid_request');
    expect(error).not.toBeInstanceOf(OutboundBlockedError);
  });

  describe('proxies from the environment', () => {
    let proxy: Server;
    let proxyHits = 0;
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };

    beforeAll(async () => {
      proxy = createServer((_req, res) => {
        proxyHits += 1;
        res.end('from proxy');
      });
      proxy.on('connect', (_req, socket: Socket) => {
        proxyHits += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      process.env.HTTP_PROXY = url;
      process.env.http_proxy = url;
    });
    afterAll(async () => {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    });

    it('are never used: the request goes straight to the checked address', async () => {
      const response = await outboundRequest(`${server.origin}/`, {}, policy());
      expect(response.text()).toBe('ok');
      expect(proxyHits).toBe(0);
    });
  });
});
