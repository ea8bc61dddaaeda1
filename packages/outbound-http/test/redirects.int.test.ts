import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundBlockedError, outboundRequest, urlOrigin } from '../src/index.js';
import { scriptedResolver, startServer, type LoopbackServer } from './support/loopback-server.js';

// `front` redirects wherever `?to=` says (status from `?status=`); `other` is a second origin.

async function refusal(promise: Promise<unknown>): Promise<OutboundBlockedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundBlockedError);
  return error as OutboundBlockedError;
}

describe('outbound guard: redirects', () => {
  let front: LoopbackServer;
  let other: LoopbackServer;
  let privateTarget: LoopbackServer;

  beforeAll(async () => {
    front = await startServer((req, res, body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const to = url.searchParams.get('to');
      if (url.pathname === '/bare') {
        res.writeHead(302).end('no location');
      } else if (url.pathname === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (to) {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end('moved');
      } else {
        res.end(`front:${req.method}:${body}`);
      }
    });
    other = await startServer((req, res, body) => res.end(`other:${req.method}:${body}`));
    privateTarget = await startServer((_req, res) => res.end('secret'), '127.0.0.3');
  });
  afterAll(async () => {
    await Promise.all([front.close(), other.close(), privateTarget.close()]);
  });
  const via = (to: string, status = 302) => `${front.origin}/r?status=${status}&to=${encodeURIComponent(to)}`;

  it('follows a same-origin redirect, keeping credentials, and reports the chain', async () => {
    const response = await outboundRequest(
      via('/final'),
      { headers: { authorization: 'Bearer k' } },
      { allowlist: [front.origin] },
    );
    expect(response.text()).toBe('front:GET:');
    expect(response.url).toBe(`${front.origin}/final`);
    expect(response.redirects).toEqual([`${front.origin}/final`]);
    expect(front.requests.at(-1)?.headers.authorization).toBe('Bearer k');
  });

  it('re-checks the allowlist on every hop', async () => {
    const error = await refusal(outboundRequest(via(`${other.origin}/x`), {}, { allowlist: [front.origin] }));
    expect(error.reason).toBe('not_allowlisted');
    expect(error.url).toBe(`${other.origin}/x`);
    expect(other.requests).toHaveLength(0);
  });

  it('refuses a redirect to a private address that is not registered', async () => {
    const policy = { allowlist: [front.origin], requireAllowlisted: false };
    const literal = await refusal(outboundRequest(via(`${privateTarget.origin}/`), {}, policy));
    expect(literal).toMatchObject({ reason: 'blocked_address', address: '127.0.0.3' });
    const dns = scriptedResolver(['127.0.0.3']);
    const named = await refusal(
      outboundRequest(
        via(`http://internal.example:${privateTarget.port}/`),
        {},
        { ...policy, resolve: dns.resolve },
      ),
    );
    expect(named).toMatchObject({ reason: 'blocked_address', address: '127.0.0.3' });
    expect(dns.calls).toEqual(['internal.example']);
    expect(privateTarget.requests).toHaveLength(0);
  });

  it('refuses a redirect to cloud metadata whatever the allowlist says', async () => {
    for (const to of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://metadata.google.internal/',
    ]) {
      const error = await refusal(
        outboundRequest(via(to), {}, { allowlist: [front.origin, urlOrigin(to) ?? ''] }),
      );
      expect(error.reason, to).toBe('metadata_address');
    }
    const unlisted = await refusal(
      outboundRequest(via('http://169.254.169.254/'), {}, { allowlist: [front.origin] }),
    );
    expect(unlisted.reason).toBe('metadata_address');
  });

  it('refuses a redirect to another scheme', async () => {
    const error = await refusal(
      outboundRequest(via('file:///etc/passwd'), {}, { allowlist: [front.origin] }),
    );
    expect(error.reason).toBe('unsupported_scheme');
  });

  it('drops every credential header when the redirect leaves the origin', async () => {
    const response = await outboundRequest(
      via(`${other.origin}/x`, 307),
      {
        method: 'POST',
        headers: {
          authorization: 'Bearer k',
          cookie: 'sid=1',
          'x-api-key': 'k2',
          'api-key': 'k3',
          'x-goog-api-key': 'k4',
          accept: 'application/json',
          'user-agent': 'platform-test',
          'content-type': 'text/plain',
        },
        body: 'payload',
      },
      { allowlist: [front.origin, other.origin] },
    );
    expect(response.text()).toBe('other:POST:payload');
    const seen = other.requests.at(-1)?.headers ?? {};
    for (const name of ['authorization', 'cookie', 'x-api-key', 'api-key', 'x-goog-api-key']) {
      expect(seen[name], name).toBeUndefined();
    }
    expect(seen).toMatchObject({
      accept: 'application/json',
      'user-agent': 'platform-test',
      'content-type': 'text/plain',
    });
  });

  it('never sends credentials from a Location (or from the URL) as userinfo', async () => {
    const target = `http://user:pw@127.0.0.1:${other.port}/u`;
    const response = await outboundRequest(via(target), {}, { allowlist: [front.origin, other.origin] });
    expect(response.url).toBe(`${other.origin}/u`);
    expect(other.requests.at(-1)?.headers.authorization).toBeUndefined();
    await outboundRequest(`http://user:pw@127.0.0.1:${other.port}/direct`, {}, { allowlist: [other.origin] });
    expect(other.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it.each([
    [303, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [307, 'POST', 'POST', 'payload'],
    [308, 'PUT', 'PUT', 'payload'],
    [303, 'PUT', 'GET', ''],
  ])('%i after %s continues as %s', async (status, method, expectedMethod, expectedBody) => {
    const response = await outboundRequest(
      via('/final', status),
      { method, body: 'payload', headers: { 'content-type': 'text/plain' } },
      { allowlist: [front.origin] },
    );
    expect(response.text()).toBe(`front:${expectedMethod}:${expectedBody}`);
    const last = front.requests.at(-1);
    expect(last?.headers['content-type']).toBe(expectedBody ? 'text/plain' : undefined);
  });

  it('stops after the hop limit', async () => {
    const before = front.requests.length;
    const error = await refusal(
      outboundRequest(`${front.origin}/loop`, {}, { allowlist: [front.origin], maxRedirects: 3 }),
    );
    expect(error.reason).toBe('too_many_redirects');
    expect(error.isPolicyRefusal).toBe(false);
    expect(front.requests.length - before).toBe(4);
  });

  it('maxRedirects 0 refuses any redirect; a 3xx without Location is returned as is', async () => {
    const error = await refusal(
      outboundRequest(via('/final'), {}, { allowlist: [front.origin], maxRedirects: 0 }),
    );
    expect(error.reason).toBe('too_many_redirects');
    const bare = await outboundRequest(`${front.origin}/bare`, {}, { allowlist: [front.origin] });
    expect(bare.status).toBe(302);
    expect(bare.text()).toBe('no location');
  });
});
