import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { buildGateway, loadGatewayConfig } from '@platform/gateway';
import {
  createOutgoingTrust,
  createServiceClient,
  MetadataKeys,
  PrincipalSigner,
  ServiceTokenSigner,
  type CallCredentials,
  type Principal,
} from '@platform/grpc';
import { identityV1 } from '@platform/contracts';
import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createLogger } from '@platform/logger';
import { listen, servicePublicKey, stackEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClientsAs } from './support/internal-clients.js';
import { startIdentityHarness, type IdentityHarness } from './support/harness.js';
import { createTestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';

// Trust between services (docs/security.md), against the real identity service over gRPC: a
// principal counts only with the gateway's signature for `identity`; internal-only methods need a
// service token from a declared caller.
const harness = useIdentityHarness();

const superuser: Principal = {
  user_id: randomUUID(),
  username: 'mallory',
  is_superuser: true,
  permissions: ['*'],
  team_ids: [],
  auth_method: 'jwt',
};
const plainUser: Principal = { ...superuser, username: 'plain', is_superuser: false, permissions: [] };
const bytesOf = (principal: Principal) => Buffer.from(JSON.stringify(principal), 'utf8');

const otherKeys = () => {
  const pair = generateKeyPairSync('ed25519');
  return {
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};
const gatewaySigner = new PrincipalSigner(stackEnv.principalSigningPrivateKey);

/** Credentials that set exactly the given metadata (what a forging process would send). */
function rawCredentials(values: Record<string, string | Promise<string>>): CallCredentials {
  return {
    async apply(metadata) {
      for (const [key, value] of Object.entries(values)) metadata.set(key, await value);
    },
  };
}

function settingsClient(credentials?: CallCredentials) {
  return createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    harness.grpcAddress,
    { defaultTimeoutMs: 5_000, credentials },
  );
}

/** GetSiteSettings (admin:settings:read) with `principal` and `credentials`: the answer or the error. */
async function readSettingsAs(principal: Principal, credentials?: CallCredentials) {
  const client = settingsClient(credentials);
  try {
    return await client.call('getSiteSettings', {}, { principal });
  } finally {
    client.close();
  }
}

const UNAUTHENTICATED = { code: 2001, httpStatus: 401 };

/** A gateway in front of this harness's identity (the other services at their local ports), `env` over the dev trust keys. */
function gatewayBeforeIdentity(env: Record<string, string>) {
  return buildGateway(
    loadGatewayConfig({
      ...process.env,
      SECRET_KEY: stackEnv.secretKey,
      REDIS_URL: stackEnv.redisUrl,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: harness.grpcAddress,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
      ...env,
    }),
    createLogger('trust-test', 'silent'),
  );
}
const FORBIDDEN = { code: 3000, httpStatus: 403 };

describe('a principal reaches identity only as the gateway signed it', () => {
  it('serves a superuser principal the gateway signed for identity (control)', async () => {
    const signed = createOutgoingTrust({
      service: 'gateway',
      serviceSigningKey: stackEnv.serviceSigningKey('gateway'),
      principalSigningKey: stackEnv.principalSigningPrivateKey,
    }).to('identity');
    const view = await readSettingsAs(superuser, signed);
    expect(view.settings).toBeDefined();
  });

  it('refuses a forged x-principal-bin with no signature', async () => {
    await expect(readSettingsAs(superuser)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses a garbage signature and one made with a key the gateway does not hold', async () => {
    await expect(
      readSettingsAs(superuser, rawCredentials({ [MetadataKeys.principalSignature]: 'a.b.c' })),
    ).rejects.toMatchObject(UNAUTHENTICATED);
    const forger = new PrincipalSigner(otherKeys().privatePem);
    const forged = rawCredentials({
      [MetadataKeys.principalSignature]: forger.sign('identity', bytesOf(superuser)),
    });
    await expect(readSettingsAs(superuser, forged)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses a valid signature over other principal bytes (a plain user upgraded to superuser)', async () => {
    const plainSignature = rawCredentials({
      [MetadataKeys.principalSignature]: gatewaySigner.sign('identity', bytesOf(plainUser)),
    });
    // The signature is good for the plain user: identity answers with its permission check.
    await expect(readSettingsAs(plainUser, plainSignature)).rejects.toMatchObject(FORBIDDEN);
    await expect(readSettingsAs(superuser, plainSignature)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses a principal the gateway signed for another service', async () => {
    const forApikeys = rawCredentials({
      [MetadataKeys.principalSignature]: gatewaySigner.sign('apikeys', bytesOf(superuser)),
    });
    await expect(readSettingsAs(superuser, forApikeys)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses an expired signature', async () => {
    const tenMinutesAgo = new PrincipalSigner(
      stackEnv.principalSigningPrivateKey,
      60,
      () => Date.now() - 600_000,
    );
    const expired = rawCredentials({
      [MetadataKeys.principalSignature]: tenMinutesAgo.sign('identity', bytesOf(superuser)),
    });
    await expect(readSettingsAs(superuser, expired)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('answers the HTTP client 401 / 2001 when a gateway signs with a key identity does not accept', async () => {
    const user = await createTestUser(harness);
    const rogue = gatewayBeforeIdentity({
      PRINCIPAL_SIGNING_PRIVATE_KEY: otherKeys().privatePem,
    });
    const http = await listen(rogue.app);
    try {
      const me = (url: string) =>
        fetch(`${url}/api/v1/users/me`, { headers: { authorization: `Bearer ${user.token}` } });
      expect((await me(harness.baseUrl)).status).toBe(200);
      const refused = await me(http.baseUrl);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 2001 });
    } finally {
      await http.close();
      await rogue.close();
    }
  });
});

describe('internal-only identity methods need a service token from a declared caller', () => {
  type Clients = ReturnType<typeof identityClientsAs>;
  async function attempt<T>(
    caller: Parameters<typeof identityClientsAs>[1],
    call: (c: Clients) => Promise<T>,
  ) {
    const clients = identityClientsAs(harness.grpcAddress, caller);
    try {
      return await call(clients);
    } finally {
      clients.close();
    }
  }
  const effective = (c: Clients) => c.settings.call('getEffectiveSettings', { keys: ['smtp_password'] });
  const principalOf = (c: Clients) => c.identity.call('getPrincipal', { user_id: randomUUID() });
  const users = (c: Clients) => c.identity.call('getUsers', { ids: [] });

  it('refuses GetEffectiveSettings without a token, with a bad, expired or misaddressed token', async () => {
    await harness.setSettings({ smtp_password: 'do-not-leak' });
    const bare = settingsClient();
    await expect(bare.call('getEffectiveSettings', { keys: [] })).rejects.toMatchObject(UNAUTHENTICATED);
    bare.close();
    const wrongKey = { service: 'notifications', serviceSigningKey: otherKeys().privatePem };
    await expect(attempt(wrongKey, effective)).rejects.toMatchObject(UNAUTHENTICATED);
    const expiredSigner = new ServiceTokenSigner(
      'notifications',
      stackEnv.serviceSigningKey('notifications'),
      60,
      () => Date.now() - 600_000,
    );
    const expired = settingsClient(
      rawCredentials({ [MetadataKeys.serviceToken]: expiredSigner.token('identity') }),
    );
    await expect(expired.call('getEffectiveSettings', { keys: [] })).rejects.toMatchObject(UNAUTHENTICATED);
    expired.close();
    const forApikeys = settingsClient(
      createOutgoingTrust({
        service: 'notifications',
        serviceSigningKey: stackEnv.serviceSigningKey('notifications'),
      }).to('apikeys'),
    );
    await expect(forApikeys.call('getEffectiveSettings', { keys: [] })).rejects.toMatchObject(
      UNAUTHENTICATED,
    );
    forApikeys.close();
  });

  it('refuses callers not declared for the method (403 / 3000), even the gateway', async () => {
    for (const service of ['gateway', 'apikeys']) {
      await expect(attempt({ service }, effective)).rejects.toMatchObject(FORBIDDEN);
    }
    // observability calls no internal identity method: identity holds no key of it, so 401.
    await expect(attempt({ service: 'observability' }, effective)).rejects.toMatchObject(UNAUTHENTICATED);
    for (const service of ['apikeys', 'notifications']) {
      await expect(attempt({ service }, principalOf)).rejects.toMatchObject(FORBIDDEN);
    }
    await expect(attempt({ service: 'gateway' }, users)).rejects.toMatchObject(FORBIDDEN);
  });

  it('refuses GetPrincipal and GetUsers without a token', async () => {
    const noToken = createServiceClient(
      identityV1.IdentityServiceService,
      'platform.identity.v1.IdentityService',
      harness.grpcAddress,
    );
    await expect(noToken.call('getPrincipal', { user_id: randomUUID() })).rejects.toMatchObject(
      UNAUTHENTICATED,
    );
    await expect(noToken.call('getUsers', { ids: [] })).rejects.toMatchObject(UNAUTHENTICATED);
    // GetInfo stays public (health and version probes).
    expect(await noToken.call('getInfo', {})).toMatchObject({ service: 'identity' });
    noToken.close();
  });

  it('serves the declared callers, secrets decrypted for notifications only', async () => {
    await harness.setSettings({ smtp_password: 'for-notifications' });
    expect((await attempt({ service: 'notifications' }, effective)).settings).toEqual({
      smtp_password: 'for-notifications',
    });
    // models reads its allowlist and nothing else.
    const allowlist = await attempt({ service: 'models' }, (c) =>
      c.settings.call('getEffectiveSettings', { keys: [] }),
    );
    expect(Object.keys(allowlist.settings ?? {})).toEqual(['model_endpoint_allowlist']);
    await expect(attempt({ service: 'models' }, effective)).rejects.toMatchObject(FORBIDDEN);
    // workflows reads its two allowlists and nothing else: no secret, not even by asking for all.
    const allowlists = await attempt({ service: 'workflows' }, (c) =>
      c.settings.call('getEffectiveSettings', { keys: [] }),
    );
    expect(Object.keys(allowlists.settings ?? {}).sort()).toEqual([
      'model_endpoint_allowlist',
      'workflow_http_allowlist',
    ]);
    await expect(attempt({ service: 'workflows' }, effective)).rejects.toMatchObject(FORBIDDEN);
    expect(await attempt({ service: 'gateway' }, principalOf)).toMatchObject({ found: false });
    expect(await attempt({ service: 'apikeys' }, users)).toEqual({ users: [] });
  });
});

describe("a service signs only as itself: no token under another caller's name", () => {
  // What a compromised service can do with the one private key it holds: sign tokens that name
  // another caller. Each callee checks the token against the key set of the caller it names.
  const impersonations = [
    // notifications (runs user-configured webhooks) claims to be the gateway: principals.
    { holder: 'notifications', claims: 'gateway', call: 'getPrincipal' },
    // workflows (runs user-defined http_request nodes) claims to be apikeys: user names.
    { holder: 'workflows', claims: 'apikeys', call: 'getUsers' },
    // models claims to be notifications: decrypted SMTP and channel secrets.
    { holder: 'models', claims: 'notifications', call: 'getEffectiveSettings' },
  ] as const;

  it('refuses each forged caller 401 / 2001, in one parallel burst, while the real callers are served', async () => {
    const attempts = impersonations.flatMap(({ holder, claims, call }) => {
      const as = (service: string, key: string) => {
        const clients = identityClientsAs(harness.grpcAddress, { service, serviceSigningKey: key });
        const run = () => {
          if (call === 'getPrincipal')
            return clients.identity.call('getPrincipal', { user_id: randomUUID() });
          if (call === 'getUsers') return clients.identity.call('getUsers', { ids: [] });
          return clients.settings.call('getEffectiveSettings', { keys: [] });
        };
        return run().finally(() => clients.close());
      };
      return [
        as(claims, stackEnv.serviceSigningKey(holder)), // forged: the holder's key, another's name
        as(claims, stackEnv.serviceSigningKey(claims)), // control: the caller with its own key
      ];
    });
    const results = await Promise.allSettled(attempts);
    for (let i = 0; i < impersonations.length; i++) {
      const { holder, claims } = impersonations[i]!;
      expect(results[2 * i], `${holder} signing as ${claims}`).toMatchObject({
        status: 'rejected',
        reason: UNAUTHENTICATED,
      });
      expect(results[2 * i + 1], `${claims} itself`).toMatchObject({ status: 'fulfilled' });
    }
  });

  it("answers the HTTP client 401 / 2001 when a process holding notifications' key serves as the gateway", async () => {
    const user = await createTestUser(harness);
    // A gateway process whose service key is notifications': the principal signature is valid,
    // but GetPrincipal (gateway only) sees a token named `gateway` that the gateway did not sign.
    const impostor = gatewayBeforeIdentity({
      SERVICE_SIGNING_PRIVATE_KEY: stackEnv.serviceSigningKey('notifications'),
      PRINCIPAL_CACHE_TTL_MS: '0',
    });
    const http = await listen(impostor.app);
    try {
      const me = (url: string) =>
        fetch(`${url}/api/v1/users/me`, { headers: { authorization: `Bearer ${user.token}` } });
      const [honest, forged] = await Promise.all([me(harness.baseUrl), me(http.baseUrl)]);
      expect(honest.status).toBe(200);
      expect(forged.status).toBe(401);
      expect(await forged.json()).toMatchObject({ code: 2001 });
    } finally {
      await http.close();
      await impostor.close();
    }
  });
});

describe('key rotation: identity configured with an old and a new key of each kind', () => {
  let rotating: IdentityHarness;
  const next = otherKeys();
  const nextGateway = otherKeys();
  const nextNotifications = otherKeys();

  beforeAll(async () => {
    rotating = await startIdentityHarness({
      PRINCIPAL_SIGNING_PUBLIC_KEY: `${next.publicPem},${stackEnv.principalSigningPublicKey}`,
      SERVICE_PUBLIC_KEY_GATEWAY: `${nextGateway.publicPem},${servicePublicKey('gateway')}`,
      SERVICE_PUBLIC_KEY_NOTIFICATIONS: `${servicePublicKey('notifications')},${nextNotifications.publicPem}`,
    });
  });
  afterAll(async () => {
    await rotating?.stop();
  });

  it('accepts principals and service tokens signed with either key, and still no other', async () => {
    const read = async (principalSigningKey: string, serviceSigningKey: string) => {
      const client = createServiceClient(
        settingsV1.SettingsServiceService,
        'platform.identity.v1.SettingsService',
        rotating.grpcAddress,
        {
          credentials: createOutgoingTrust({ service: 'gateway', serviceSigningKey, principalSigningKey }).to(
            'identity',
          ),
        },
      );
      try {
        return await client.call('getSiteSettings', {}, { principal: superuser });
      } finally {
        client.close();
      }
    };
    await expect(
      read(stackEnv.principalSigningPrivateKey, stackEnv.serviceSigningKey('gateway')),
    ).resolves.toBeDefined();
    await expect(read(next.privatePem, nextGateway.privatePem)).resolves.toBeDefined();
    await expect(read(otherKeys().privatePem, nextGateway.privatePem)).rejects.toMatchObject(UNAUTHENTICATED);
    // The old gateway (old keys) keeps working through the rotation window.
    const me = await rotating.request('GET', '/users/me', { token: (await createTestUser(rotating)).token });
    expect(me.status).toBe(200);
    const settingsAs = async (serviceSigningKey: string) => {
      const clients = identityClientsAs(rotating.grpcAddress, {
        service: 'notifications',
        serviceSigningKey,
      });
      try {
        return await clients.settings.call('getEffectiveSettings', { keys: [] });
      } finally {
        clients.close();
      }
    };
    // Both keys of notifications, in parallel; a third key of its own name is a stranger's.
    const [current, upcoming, third] = await Promise.allSettled([
      settingsAs(stackEnv.serviceSigningKey('notifications')),
      settingsAs(nextNotifications.privatePem),
      settingsAs(otherKeys().privatePem),
    ]);
    expect([current.status, upcoming.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(third).toMatchObject({ status: 'rejected', reason: UNAUTHENTICATED });
    // Another caller's new key is not notifications' key, even while both rotate.
    await expect(settingsAs(nextGateway.privatePem)).rejects.toMatchObject(UNAUTHENTICATED);
  });
});
