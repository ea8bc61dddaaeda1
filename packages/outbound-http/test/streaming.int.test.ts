import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundHttpError, outboundRequest } from '../src/index.js';
import { startServer, type LoopbackServer } from './support/loopback-server.js';

describe('outbound guard: streamed bodies and abort', () => {
  let server: LoopbackServer;
  const timers = new Set<NodeJS.Timeout>();
  let released: (() => void) | undefined;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/paced') {
        // Three chunks, the last only after the client confirmed it saw the first two.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('one;');
        timers.add(setTimeout(() => res.write('two;'), 20));
        released = () => res.end('three');
      } else if (req.url === '/hang') {
        res.writeHead(200);
        res.write('start');
        timers.add(setTimeout(() => res.end(), 10_000));
      } else res.end('ok');
    });
  });
  afterAll(async () => {
    timers.forEach(clearTimeout);
    await server.close();
  });

  it('hands each chunk to onData while the response is still open, and still returns the body', async () => {
    const seen: string[] = [];
    const response = await outboundRequest(
      `${server.origin}/paced`,
      {
        onData: (chunk, { status }) => {
          seen.push(`${status}:${chunk.toString()}`);
          // The server ends only after this: proof the chunks came before the response was done.
          if (seen.join('').includes('two;')) released?.();
        },
      },
      { allowlist: [server.origin] },
    );
    expect(seen[0]).toBe('200:one;');
    expect(seen.map((chunk) => chunk.slice(4)).join('')).toBe('one;two;three');
    expect(response.text()).toBe('one;two;three');
  });

  it('fails with reason aborted when the signal aborts mid-body, or before the request', async () => {
    const controller = new AbortController();
    const pending = outboundRequest(
      `${server.origin}/hang`,
      { signal: controller.signal, onData: () => controller.abort() },
      { allowlist: [server.origin] },
    );
    const error = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect((error as OutboundHttpError).reason).toBe('aborted');

    const before = await outboundRequest(
      `${server.origin}/`,
      { signal: AbortSignal.abort() },
      { allowlist: [server.origin] },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect((before as OutboundHttpError).reason).toBe('aborted');
  });
});
