import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.js';
import { parseTrustProxy } from '../src/http/trust-proxy.js';

describe('TRUST_PROXY', () => {
  it('takes a hop count, false, or a list of addresses, ranges and names', () => {
    expect(parseTrustProxy('1')).toEqual({ value: 1 });
    expect(parseTrustProxy('false')).toEqual({ value: false });
    expect(parseTrustProxy('loopback, 10.0.0.0/8,fd00::/8, 192.168.0.0/255.255.0.0, 172.16.0.5')).toEqual({
      value: 'loopback,10.0.0.0/8,fd00::/8,192.168.0.0/255.255.0.0,172.16.0.5',
    });
  });

  it('refuses true (any client could name its address), a typo and impossible ranges', () => {
    for (const bad of ['true', 'lookback', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', '11', '']) {
      expect([bad, 'error' in parseTrustProxy(bad)]).toEqual([bad, true]);
    }
  });

  it('a bad value stops the gateway at start, naming the variable', () => {
    expect(() => loadGatewayConfig({ ...process.env, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});
