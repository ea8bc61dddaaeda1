import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { OutboundBlockedError, guardedLookup } from '../src/index.js';
import { scriptedResolver } from './support/loopback-server.js';

// The lookup `net.connect` calls: what it hands to the callback is exactly what the socket dials.
function run(
  answers: string[],
  privateAllowed: boolean,
  options: { all?: boolean; family?: number },
): Promise<{ error: unknown; result: string | LookupAddress[]; family: number | undefined }> {
  const lookup = guardedLookup({
    resolve: scriptedResolver(answers).resolve,
    privateAllowed,
    url: 'http://x.example/',
  });
  return new Promise((resolve) => {
    lookup('x.example', options as never, (error, result, family) => resolve({ error, result, family }));
  });
}

describe('guardedLookup', () => {
  it('hands public answers through, every one with all:true, the first without', async () => {
    const all = await run(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], false, { all: true });
    expect(all.error).toBeNull();
    expect(all.result).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const one = await run(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], false, {});
    expect([one.result, one.family]).toEqual(['93.184.215.14', 4]);
  });

  it('honours a family restriction, and says ENOTFOUND when nothing of that family is left', async () => {
    const v6 = await run(['93.184.215.14', '2606:4700::1111'], false, { family: 6 });
    expect([v6.result, v6.family]).toEqual(['2606:4700::1111', 6]);
    const none = await run(['93.184.215.14'], false, { family: 6, all: true });
    expect((none.error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('refuses private answers (IPv4 and IPv6) unless allowed, and metadata always', async () => {
    for (const answer of ['127.0.0.1', '::1', '10.0.0.1', 'fd00::1', '::ffff:192.168.0.1']) {
      const refused = await run([answer], false, { all: true });
      expect(refused.error, answer).toBeInstanceOf(OutboundBlockedError);
      expect((refused.error as OutboundBlockedError).reason).toBe('blocked_address');
      expect((await run([answer], true, { all: true })).error, answer).toBeNull();
    }
    const meta = await run(['169.254.169.254'], true, { all: true });
    expect((meta.error as OutboundBlockedError).reason).toBe('metadata_address');
  });

  it('refuses the whole name when one answer of several is refused, whatever the family filter', async () => {
    const mixed = await run(['93.184.215.14', '::1'], false, { family: 4 });
    expect((mixed.error as OutboundBlockedError).address).toBe('::1');
  });
});
