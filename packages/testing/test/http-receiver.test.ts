import { afterEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../src/index.js';

let receiver: HttpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('startHttpReceiver', () => {
  it('records method, path with query, headers and the raw body bytes', async () => {
    receiver = await startHttpReceiver();
    const raw = '{"b":1,  "a":"é"}';
    const res = await fetch(`${receiver.url}/hooks/x?attempt=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sig' },
      body: raw,
    });
    expect(res.status).toBe(200);
    const [got] = await receiver.waitForRequests(1);
    expect(got).toMatchObject({ method: 'POST', path: '/hooks/x?attempt=1' });
    expect(got!.headers['x-signature']).toBe('sig');
    expect(got!.body.equals(Buffer.from(raw, 'utf8'))).toBe(true);
  });

  it('answers from the script in order (500 then 200), then from the fallback', async () => {
    receiver = await startHttpReceiver({ status: 204 });
    receiver.script({ status: 500, body: 'boom' }, { status: 200, body: { ok: true } });
    const first = await fetch(receiver.url);
    expect([first.status, await first.text()]).toEqual([500, 'boom']);
    const second = await fetch(receiver.url);
    expect(second.headers.get('content-type')).toBe('application/json');
    expect([second.status, await second.json()]).toEqual([200, { ok: true }]);
    expect((await fetch(receiver.url)).status).toBe(204);
    expect(receiver.requests).toHaveLength(3);
  });

  it('answers 429 with Retry-After', async () => {
    receiver = await startHttpReceiver();
    receiver.script({ status: 429, headers: { 'retry-after': '7' } });
    const res = await fetch(receiver.url);
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '7']);
  });

  it('answers slowly: a client time-out fires before the scripted delay ends', async () => {
    receiver = await startHttpReceiver();
    receiver.script({ delayMs: 10_000 });
    await expect(fetch(receiver.url, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(receiver.requests).toHaveLength(1);
  });

  it('waitForRequests fails when too few requests arrive', async () => {
    receiver = await startHttpReceiver();
    await expect(receiver.waitForRequests(1, 50)).rejects.toThrow('0 of 1 requests within 50 ms');
  });
});
