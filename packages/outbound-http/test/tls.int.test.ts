import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundHttpError, outboundRequest } from '../src/index.js';
import { scriptedResolver, startServer, type LoopbackServer } from './support/loopback-server.js';

// Test-only CA and a certificate for `guard.test` (valid 100 years; the key protects nothing).
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const ca = fixture('test-ca.pem');

describe('outbound guard: https', () => {
  let server: Server;
  let port = 0;
  let plain: LoopbackServer;
  const seen: { servername: string | false | null; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    plain = await startServer((_req, res) => res.end('plain'));
    server = createServer({ cert: fixture('guard-test.pem'), key: fixture('guard-test.key') }, (req, res) => {
      seen.push({
        servername: (req.socket as TLSSocket).servername,
        authorization: req.headers.authorization,
      });
      if (req.url === '/downgrade')
        res.writeHead(302, { location: `http://guard.test:${plain.port}/` }).end();
      else res.end('secure');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await plain.close();
  });
  const dns = () => scriptedResolver(['127.0.0.1']).resolve;

  it('verifies the certificate against the host name (SNI sent), not the checked IP', async () => {
    const origin = `https://guard.test:${port}`;
    const response = await outboundRequest(`${origin}/`, {}, { allowlist: [origin], resolve: dns(), ca });
    expect(response.text()).toBe('secure');
    expect(seen.at(-1)?.servername).toBe('guard.test');
  });

  it('fails an untrusted or mismatched certificate as connection_failed', async () => {
    const origin = `https://guard.test:${port}`;
    const untrusted = await outboundRequest(`${origin}/`, {}, { allowlist: [origin], resolve: dns() }).catch(
      (e: unknown) => e,
    );
    expect(untrusted).toBeInstanceOf(OutboundHttpError);
    expect((untrusted as OutboundHttpError).reason).toBe('connection_failed');
    const other = `https://other.test:${port}`;
    const mismatch = await outboundRequest(`${other}/`, {}, { allowlist: [other], resolve: dns(), ca }).catch(
      (e: unknown) => e,
    );
    expect((mismatch as OutboundHttpError).reason).toBe('connection_failed');
    expect(String((mismatch as Error).cause)).toMatch(/altnames|other\.test/i);
  });

  it('a redirect from https to http is another origin: re-checked, and credentials dropped', async () => {
    const secure = `https://guard.test:${port}`;
    const insecure = `http://guard.test:${plain.port}`;
    const refused = await outboundRequest(
      `${secure}/downgrade`,
      {},
      { allowlist: [secure], resolve: dns(), ca },
    ).catch((e: unknown) => e);
    expect((refused as OutboundHttpError).reason).toBe('not_allowlisted');
    const response = await outboundRequest(
      `${secure}/downgrade`,
      { headers: { authorization: 'Bearer k' } },
      { allowlist: [secure, insecure], resolve: dns(), ca },
    );
    expect(response.text()).toBe('plain');
    expect(seen.at(-1)?.authorization).toBe('Bearer k');
    expect(plain.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});
