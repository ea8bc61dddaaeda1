import { createLogger } from '@platform/logger';
import { listen, requester, uniqueName, type Requester, type RunningHttp } from '@platform/testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../src/index.js';
import { platformGatewayConfig, startGatewayPlatform, type GatewayPlatform } from './support/platform.js';

/**
 * Issue 20: behind the Ingress, `req.ip` must be the client's address, and a client must not be
 * able to choose it. Observed where it lands: the audit row identity writes for a failed login
 * (the same address feeds the login anomaly check, the captcha binding and per-address limits).
 * The test client connects from 127.0.0.1.
 */
const logger = createLogger('client-address-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** The documented values: deploy/k8s/base/platform-config.env and deploy/docker-compose.yml. */
function deployedValue(file: string, pattern: RegExp): string {
  const text = readFileSync(new URL(`../../../deploy/${file}`, import.meta.url), 'utf8');
  const value = pattern.exec(text)?.[1];
  if (!value) throw new Error(`no TRUST_PROXY in deploy/${file}`);
  return value;
}
const K8S_TRUST_PROXY = deployedValue('k8s/base/platform-config.env', /^TRUST_PROXY=(.*)$/m);
const COMPOSE_TRUST_PROXY = deployedValue('docker-compose.yml', /TRUST_PROXY: \$\{TRUST_PROXY:-(.*)\}/);

let platform: GatewayPlatform;
const gateways: { gateway: Gateway; http: RunningHttp }[] = [];

beforeAll(async () => {
  platform = await startGatewayPlatform();
}, 60_000);
afterAll(async () => {
  for (const { gateway, http } of gateways) {
    await http.close();
    await gateway.close();
  }
  await platform?.stop();
});

/** A gateway in front of the same identity, with this TRUST_PROXY. */
async function gatewayTrusting(trustProxy: string): Promise<Requester> {
  const gateway = buildGateway(
    platformGatewayConfig(platform.identity, platform.apikeys, { TRUST_PROXY: trustProxy }),
    logger,
    'test',
  );
  const http = await listen(gateway.app);
  gateways.push({ gateway, http });
  return requester(http.baseUrl);
}

/** The client address identity recorded for one failed login sent with `forwardedFor`. */
async function recordedAddress(request: Requester, forwardedFor?: string): Promise<string | null> {
  const agent = uniqueName('client-address');
  const res = await request('POST', '/login/access-token', {
    form: { username: uniqueName('nobody'), password: 'not-the-password' },
    headers: { 'user-agent': agent, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });
  expect(res.status).toBe(400);
  const { rows } = await platform.identity.pool.query<{ ip: string | null }>(
    `SELECT ip FROM audit_log WHERE user_agent = $1`,
    [agent],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.ip;
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

describe('TRUST_PROXY: who may name the client address', () => {
  it(`k8s (${K8S_TRUST_PROXY}, the Ingress hop): the address the Ingress saw; what the client wrote further left is ignored`, async () => {
    const request = await gatewayTrusting(K8S_TRUST_PROXY);
    expect(await recordedAddress(request, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await recordedAddress(request, '198.51.100.4')).toBe('198.51.100.4');
    expect(await recordedAddress(request)).toMatch(LOOPBACK);
  });

  it(`compose (${COMPOSE_TRUST_PROXY}, nothing in front): X-Forwarded-For is ignored, the socket peer is the client`, async () => {
    const request = await gatewayTrusting(COMPOSE_TRUST_PROXY);
    expect(await recordedAddress(request, '6.6.6.6')).toMatch(LOOPBACK);
  });

  it('a list of proxy ranges: the header counts only from a peer in the list', async () => {
    const untrusted = await gatewayTrusting('10.0.0.0/8, fd00::/8');
    expect(await recordedAddress(untrusted, '6.6.6.6')).toMatch(LOOPBACK);
    const trusted = await gatewayTrusting('loopback, 10.0.0.0/8');
    // Walked from the right: the loopback peer is trusted, 203.0.113.9 is not, so it is the client.
    expect(await recordedAddress(trusted, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await recordedAddress(trusted, '6.6.6.6, 10.1.2.3')).toBe('6.6.6.6');
  });

  it('the default (loopback): a proxy on the same host may name the client', async () => {
    expect(await recordedAddress(platform.request, '203.0.113.9')).toBe('203.0.113.9');
  });
});
