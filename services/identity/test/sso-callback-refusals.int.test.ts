import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@platform/crypto';
import { describe, expect, it } from 'vitest';
import { signInAtProvider } from './support/oidc-test-provider.js';
import {
  callCallback,
  createProvider,
  providerRedirect,
  startLogin,
  envelopeOf,
  useSsoStack,
  uniqueSub,
  userByEmail,
} from './support/sso-fixtures.js';

const PROVIDER = 'corp';
const stack = useSsoStack([PROVIDER, 'other'], PROVIDER);

describe('GET /sso/callback/{provider}: refused callbacks', () => {
  it('takes a state once: a replayed callback, an unknown state and another provider’s state are 1002', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `replay_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    expect((await envelopeOf(await callCallback(stack.harness, callback))).code).toBe(0);
    const replay = await callCallback(stack.harness, callback);
    const body = await envelopeOf(replay);
    expect([replay.status, body.code, body.data.error_key]).toEqual([400, 1002, 'sso_state_invalid']);

    // A JSON client: browsers (no JSON preference) are sent to /sso/complete#error=… instead.
    const unknown = await stack.harness.request('GET', `/sso/callback/${PROVIDER}?code=abc&state=forged`, {
      headers: { accept: 'application/json' },
    });
    expect([unknown.status, unknown.body.code, unknown.body.data.error_key]).toEqual([
      400,
      1002,
      'sso_state_invalid',
    ]);
    // A state issued for PROVIDER, brought to another provider's callback (same issuer and client,
    // so only the state's provider check can refuse it): 1002, and nobody is signed in.
    const other = await createProvider(stack, 'other');
    expect(other.body.code).toBe(0);
    try {
      const email = `crossed_${randomUUID().slice(0, 8)}@idp.test`;
      const crossed = await providerRedirect(stack, PROVIDER, {
        sub: uniqueSub(),
        email,
        email_verified: true,
      });
      const res = await stack.harness.request('GET', `/sso/callback/other${crossed.search}`, {
        headers: { accept: 'application/json' },
      });
      expect([res.status, res.body.code, res.body.data.error_key]).toEqual([400, 1002, 'sso_state_invalid']);
      expect(await userByEmail(stack, email)).toBeUndefined();
    } finally {
      await stack.harness.request('DELETE', `/admin/sso/providers/${other.body.data.id}`, {
        token: stack.admin.token,
      });
    }
  });

  it('expired state (gone from Redis) is 1002 sso_state_invalid', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `expired_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    // Only this sign-in's state expires (the store keys it by the state's SHA-256).
    const { redis } = stack.harness.identity.dependencies;
    expect(await redis.del(`sso:state:${sha256Hex(callback.searchParams.get('state')!)}`)).toBe(1);
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key]).toEqual([1002, 'sso_state_invalid']);
  });

  it('a refusal at the provider (error=access_denied) is 1002 sso_authentication_failed', async () => {
    const login = await startLogin(stack.harness, PROVIDER);
    stack.op.denyNext('access_denied');
    const callback = await signInAtProvider(login.headers.get('location')!, stack.op.issuer);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key, body.data.provider_error]).toEqual([
      1002,
      'sso_authentication_failed',
      'access_denied',
    ]);
  });

  it('a forged code with a valid state fails the exchange (1002 sso_authentication_failed)', async () => {
    const callback = await providerRedirect(stack, PROVIDER, {
      sub: uniqueSub(),
      email: `forged_${randomUUID().slice(0, 8)}@idp.test`,
      email_verified: true,
    });
    callback.searchParams.set('code', 'not-the-code');
    const body = await envelopeOf(await callCallback(stack.harness, callback));
    expect([body.code, body.data.error_key]).toEqual([1002, 'sso_authentication_failed']);
  });
});
