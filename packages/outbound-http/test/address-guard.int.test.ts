import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundBlockedError, checkUrl, outboundRequest, type OutboundPolicy } from '../src/index.js';
import { scriptedResolver, startServer, type LoopbackServer } from './support/loopback-server.js';

// Real HTTP servers on loopback; names are played by an injected resolver (no real DNS but
// `localhost`). Each refusal also asserts that the server never saw a request.

async function refusal(promise: Promise<unknown>): Promise<OutboundBlockedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundBlockedError);
  return error as OutboundBlockedError;
}

describe('outbound guard: origins and addresses', () => {
  let v4: LoopbackServer;
  let second: LoopbackServer;
  let v6: LoopbackServer;

  beforeAll(async () => {
    v4 = await startServer((_req, res, body) => res.end(`v4:${body}`));
    // Same port on another loopback address: tells which address a connection really went to.
    second = await startServer((_req, res) => res.end('second'), '127.0.0.2', v4.port);
    v6 = await startServer((_req, res) => res.end('v6'), '::1');
  });
  afterAll(async () => {
    await Promise.all([v4.close(), second.close(), v6.close()]);
  });
  const open = (): Pick<OutboundPolicy, 'allowlist' | 'requireAllowlisted'> => ({
    allowlist: [],
    requireAllowlisted: false,
  });

  it('reaches an allowlisted private origin with method, headers and body intact', async () => {
    const response = await outboundRequest(
      `${v4.origin}/v1/models?limit=1`,
      { method: 'post', headers: { Authorization: 'Bearer k', 'Content-Type': 'text/plain' }, body: 'ping' },
      { allowlist: [`${v4.origin}/`] },
    );
    expect(response.status).toBe(200);
    expect(response.text()).toBe('v4:ping');
    expect(response.url).toBe(`${v4.origin}/v1/models?limit=1`);
    const seen = v4.requests.at(-1);
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/models?limit=1', body: 'ping' });
    expect(seen?.headers.authorization).toBe('Bearer k');
  });

  it('refuses an origin that is not allowlisted (scheme, port and host all count)', async () => {
    const before = v4.requests.length;
    for (const allowlist of [
      [`http://127.0.0.1:${v4.port + 1}`],
      [`https://127.0.0.1:${v4.port}`],
      ['http://127.0.0.1'],
    ]) {
      const error = await refusal(outboundRequest(`${v4.origin}/`, {}, { allowlist }));
      expect(error.reason).toBe('not_allowlisted');
      expect(error.isPolicyRefusal).toBe(true);
    }
    expect(v4.requests.length).toBe(before);
  });

  it('refuses a private address that is not registered, even when any public origin is allowed', async () => {
    const before = v4.requests.length;
    const error = await refusal(outboundRequest(`${v4.origin}/`, {}, open()));
    expect(error).toMatchObject({ reason: 'blocked_address', range: 'loopback', address: '127.0.0.1' });
    expect(v4.requests.length).toBe(before);
  });

  it('classifies decimal and hex IPv4 hosts by the address they reach', async () => {
    const before = v4.requests.length;
    for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1']) {
      const error = await refusal(outboundRequest(`http://${host}:${v4.port}/`, {}, open()));
      expect(error.address, host).toBe('127.0.0.1');
    }
    expect(v4.requests.length).toBe(before);
    // …and they are the same origin as the dotted form, so registering that lets them through.
    const ok = await outboundRequest(`http://0x7f.1:${v4.port}/`, {}, { allowlist: [v4.origin] });
    expect(ok.text()).toBe('v4:');
  });

  it('refuses a host name that resolves to loopback (real DNS: localhost; injected: a public-looking name)', async () => {
    const before = v4.requests.length;
    const local = await refusal(outboundRequest(`http://localhost:${v4.port}/`, {}, open()));
    expect(local.reason).toBe('blocked_address');
    const dns = scriptedResolver(['127.0.0.1']);
    const named = await refusal(
      outboundRequest(`http://api.example.com:${v4.port}/`, {}, { ...open(), resolve: dns.resolve }),
    );
    expect(named).toMatchObject({ reason: 'blocked_address', address: '127.0.0.1' });
    expect(dns.calls).toEqual(['api.example.com']);
    expect(v4.requests.length).toBe(before);
  });

  it('refuses a name when any of its addresses is private (mixed answers)', async () => {
    const dns = scriptedResolver(['93.184.215.14', '127.0.0.1']);
    const error = await refusal(
      outboundRequest(`http://mixed.example:${v4.port}/`, {}, { ...open(), resolve: dns.resolve }),
    );
    expect(error.address).toBe('127.0.0.1');
  });

  it('lets a registered private host name resolve to its private address', async () => {
    const dns = scriptedResolver(['127.0.0.1']);
    const origin = `http://ollama.internal:${v4.port}`;
    const response = await outboundRequest(
      `${origin}/api`,
      {},
      { allowlist: [origin], resolve: dns.resolve },
    );
    expect(response.text()).toBe('v4:');
    expect(v4.requests.at(-1)?.headers.host).toBe(`ollama.internal:${v4.port}`);
  });

  it('DNS rebinding: a name that passed an earlier check is checked again at connect time', async () => {
    const dns = scriptedResolver(['93.184.215.14'], ['127.0.0.1']);
    const policy: OutboundPolicy = { ...open(), resolve: dns.resolve };
    const url = `http://rebind.example:${v4.port}/`;
    await expect(checkUrl(url, policy)).resolves.toBeUndefined(); // first answer: public
    const before = v4.requests.length;
    const error = await refusal(outboundRequest(url, {}, policy)); // second answer: loopback
    expect(error).toMatchObject({ reason: 'blocked_address', address: '127.0.0.1' });
    expect(dns.calls).toHaveLength(2);
    expect(v4.requests.length).toBe(before);
  });

  it('resolves once per connection and connects to exactly the address it checked', async () => {
    // A check-then-connect guard resolves twice and would land on 127.0.0.2 here.
    const dns = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
    const origin = `http://flip.internal:${v4.port}`;
    const response = await outboundRequest(`${origin}/`, {}, { allowlist: [origin], resolve: dns.resolve });
    expect(response.text()).toBe('v4:');
    expect(dns.calls).toHaveLength(1);
    expect(second.requests).toHaveLength(0);
  });

  it('never reaches cloud metadata, even when its origin is allowlisted', async () => {
    const literal = await refusal(
      outboundRequest(
        'http://169.254.169.254/latest/meta-data/',
        {},
        { allowlist: ['http://169.254.169.254'] },
      ),
    );
    expect(literal).toMatchObject({ reason: 'metadata_address', range: 'metadata' });
    for (const url of ['http://[::ffff:169.254.169.254]/', 'http://[fd00:ec2::254]/', 'http://2852039166/']) {
      const error = await refusal(outboundRequest(url, {}, { allowlist: [url] }));
      expect(error.reason, url).toBe('metadata_address');
    }
    const dns = scriptedResolver(['169.254.169.254']);
    const named = await refusal(
      outboundRequest(
        'http://meta.example/',
        {},
        { allowlist: ['http://meta.example'], resolve: dns.resolve },
      ),
    );
    expect(named.reason).toBe('metadata_address');
    const google = scriptedResolver(['127.0.0.1']);
    const byName = await refusal(
      outboundRequest(
        'http://metadata.google.internal./computeMetadata/v1/',
        {},
        { allowlist: ['http://metadata.google.internal'], resolve: google.resolve },
      ),
    );
    expect(byName.reason).toBe('metadata_address');
    expect(google.calls).toHaveLength(0);
  });

  it('never reaches link-local addresses, even when allowlisted', async () => {
    for (const url of ['http://169.254.10.1/', 'http://[fe80::1]/']) {
      const error = await refusal(outboundRequest(url, {}, { allowlist: [url] }));
      expect(error).toMatchObject({ reason: 'blocked_address', range: 'link_local' });
    }
  });

  it('IPv6 literals: ::1 is loopback, registered or refused; IPv4-mapped forms reach the IPv4 address', async () => {
    const refused = await refusal(outboundRequest(`${v6.origin}/`, {}, open()));
    expect(refused).toMatchObject({ reason: 'blocked_address', range: 'loopback', address: '::1' });
    expect(v6.requests).toHaveLength(0);
    const ok = await outboundRequest(`http://[0:0::1]:${v6.port}/`, {}, { allowlist: [v6.origin] });
    expect(ok.text()).toBe('v6');
    const before = v4.requests.length;
    for (const host of [
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[64:ff9b::7f00:1]',
      '[::127.0.0.1]',
      '[::]',
    ]) {
      const error = await refusal(outboundRequest(`http://${host}:${v4.port}/`, {}, open()));
      expect(error.reason, host).toBe('blocked_address');
    }
    expect(v4.requests.length).toBe(before);
  });

  it('refuses unsupported schemes and malformed URLs', async () => {
    expect((await refusal(outboundRequest('file:///etc/passwd', {}, open()))).reason).toBe(
      'unsupported_scheme',
    );
    expect((await refusal(outboundRequest('not a url', {}, open()))).reason).toBe('invalid_url');
  });

  it('reads the allowlist through a function when given one', async () => {
    let current = [v4.origin];
    const policy: OutboundPolicy = { allowlist: async () => current };
    expect((await outboundRequest(`${v4.origin}/`, {}, policy)).status).toBe(200);
    current = [];
    expect((await refusal(outboundRequest(`${v4.origin}/`, {}, policy))).reason).toBe('not_allowlisted');
  });
});
