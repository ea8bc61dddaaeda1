import { generateKeyPairSync } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { PrincipalSigner, PrincipalVerifier } from '../src/trust/principal-token.js';
import { rejectionToBusinessError } from '../src/trust/server-trust.js';
import { ServiceTokenSigner, ServiceTokenVerifier } from '../src/trust/service-token.js';
import { TrustRejection } from '../src/trust/trust-rejection.js';
import { businessErrorToStatus } from '../src/status-details.js';

// The token rules on their own (pure crypto, no server); the integration suites in
// services/identity and services/apikeys test the same rules over real gRPC.
function keyPair() {
  const pair = generateKeyPairSync('ed25519');
  return {
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
const current = keyPair();
const next = keyPair();
const bytes = Buffer.from('{"user_id":"u1","is_superuser":false}');

describe('principal signatures', () => {
  it('verify for the audience they name, with any key of the rotation list', async () => {
    const verifier = new PrincipalVerifier('identity', `${next.publicPem},${current.publicPem}`);
    for (const key of [current, next]) {
      const token = await new PrincipalSigner(key.privatePem).sign('identity', bytes);
      await expect(verifier.verify(token, bytes)).resolves.toBeUndefined();
    }
    const stranger = await new PrincipalSigner(keyPair().privatePem).sign('identity', bytes);
    await expect(verifier.verify(stranger, bytes)).rejects.toBeInstanceOf(TrustRejection);
  });

  it('accept one-line PEM with escaped newlines (env files)', async () => {
    const oneLine = current.publicPem.trim().replace(/\n/g, '\\n');
    const verifier = new PrincipalVerifier('identity', oneLine);
    const token = await new PrincipalSigner(current.privatePem.replace(/\n/g, '\\n')).sign('identity', bytes);
    await expect(verifier.verify(token, bytes)).resolves.toBeUndefined();
  });

  it('stay bound to their bytes even once cached as verified', async () => {
    const verifier = new PrincipalVerifier('identity', current.publicPem);
    const token = await new PrincipalSigner(current.privatePem).sign('identity', bytes);
    await verifier.verify(token, bytes);
    const upgraded = Buffer.from('{"user_id":"u1","is_superuser":true}');
    await expect(verifier.verify(token, upgraded)).rejects.toMatchObject({
      reason: expect.stringMatching(/match/),
    });
  });

  it('expire: a cached verification ends with the token', async () => {
    let now = Date.now();
    const verifier = new PrincipalVerifier('identity', current.publicPem, () => now);
    const token = await new PrincipalSigner(current.privatePem, 60, () => now).sign('identity', bytes);
    await verifier.verify(token, bytes);
    now += 66_000; // 60 s life + 5 s tolerance
    await expect(verifier.verify(token, bytes)).rejects.toBeInstanceOf(TrustRejection);
    const fresh = new PrincipalVerifier('identity', current.publicPem, () => now);
    await expect(fresh.verify(token, bytes)).rejects.toMatchObject({ reason: expect.stringMatching(/exp/) });
  });

  it('are reused by the signer for half their life, then renewed', async () => {
    let now = Date.now();
    const signer = new PrincipalSigner(current.privatePem, 60, () => now);
    const first = await signer.sign('identity', bytes);
    now += 29_000;
    expect(await signer.sign('identity', bytes)).toBe(first);
    expect(await signer.sign('apikeys', bytes)).not.toBe(first);
    now += 2_000;
    expect(await signer.sign('identity', bytes)).not.toBe(first);
  });
});

describe('service tokens', () => {
  const gateway = keyPair();
  const notifications = keyPair();
  const nextNotifications = keyPair();
  const callerKeys = {
    gateway: gateway.publicPem,
    notifications: [nextNotifications.publicPem, notifications.publicPem],
  };

  it('name the caller and verify with a key of that caller, for their audience only', async () => {
    const verifier = new ServiceTokenVerifier('identity', callerKeys);
    expect(
      await verifier.verify(await new ServiceTokenSigner('gateway', gateway.privatePem).token('identity')),
    ).toBe('gateway');
    for (const key of [notifications, nextNotifications]) {
      const token = await new ServiceTokenSigner('notifications', key.privatePem).token('identity');
      expect(await verifier.verify(token)).toBe('notifications');
    }
    const misaddressed = await new ServiceTokenSigner('gateway', gateway.privatePem).token('apikeys');
    await expect(verifier.verify(misaddressed)).rejects.toBeInstanceOf(TrustRejection);
    const foreign = await new ServiceTokenSigner('gateway', keyPair().privatePem).token('identity');
    await expect(verifier.verify(foreign)).rejects.toBeInstanceOf(TrustRejection);
    await expect(verifier.verify(undefined)).rejects.toBeInstanceOf(TrustRejection);
    await expect(verifier.verify('not.a.token')).rejects.toBeInstanceOf(TrustRejection);
  });

  it("are refused under another caller's name, even signed with a key the callee trusts", async () => {
    const verifier = new ServiceTokenVerifier('identity', callerKeys);
    // notifications' own key, gateway's name: the kid is not one of the gateway's keys.
    const impersonation = await new ServiceTokenSigner('gateway', notifications.privatePem).token('identity');
    await expect(verifier.verify(impersonation)).rejects.toMatchObject({
      reason: expect.stringMatching(/not signed by a key of gateway/),
    });
    // A caller the callee holds no key for is refused before any signature check.
    const stranger = await new ServiceTokenSigner('workflows', notifications.privatePem).token('identity');
    await expect(verifier.verify(stranger)).rejects.toMatchObject({
      reason: expect.stringMatching(/workflows/),
    });
  });

  it('refuse a private key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => new ServiceTokenSigner('gateway', rsa)).toThrow(/Ed25519/);
  });
});

describe('refusals on the wire', () => {
  it('are UNAUTHENTICATED (401 / 2001) or PERMISSION_DENIED (403 / 3000)', () => {
    const unauthenticated = rejectionToBusinessError(new TrustRejection('unauthenticated', 'x'));
    expect([unauthenticated.code, unauthenticated.httpStatus]).toEqual([2001, 401]);
    expect(businessErrorToStatus(unauthenticated).code).toBe(status.UNAUTHENTICATED);
    const forbidden = rejectionToBusinessError(new TrustRejection('forbidden', 'x'));
    expect([forbidden.code, forbidden.httpStatus]).toEqual([3000, 403]);
    expect(businessErrorToStatus(forbidden).code).toBe(status.PERMISSION_DENIED);
  });
});
