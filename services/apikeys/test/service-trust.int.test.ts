import { randomUUID } from 'node:crypto';
import { apikeysV1 } from '@platform/contracts';
import {
  createOutgoingTrust,
  createServiceClient,
  MetadataKeys,
  PrincipalSigner,
  type CallCredentials,
  type Principal,
} from '@platform/grpc';
import { stackEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

// Trust between services (docs/security.md) at the apikeys service: VerifyKey and the expiry
// check are internal-only; a principal counts only with the gateway's signature for `apikeys`.
let harness: ApiKeysHarness;
let owner: TestUser;
let secret: string;

const UNAUTHENTICATED = { code: 2001, httpStatus: 401 };
const FORBIDDEN = { code: 3000, httpStatus: 403 };

function apikeysClient(credentials?: CallCredentials) {
  return createServiceClient(
    apikeysV1.ApiKeysServiceService,
    'platform.apikeys.v1.ApiKeysService',
    harness.apikeysAddress,
    { defaultTimeoutMs: 5_000, credentials },
  );
}

const as = (service: string, principalSigningKey?: string) =>
  createOutgoingTrust({
    service,
    serviceSigningKey: stackEnv.serviceSigningKey(service),
    principalSigningKey,
  }).to('apikeys');

async function withClient<T>(
  credentials: CallCredentials | undefined,
  call: (client: ReturnType<typeof apikeysClient>) => Promise<T>,
) {
  const client = apikeysClient(credentials);
  try {
    return await call(client);
  } finally {
    client.close();
  }
}

const verify = (client: ReturnType<typeof apikeysClient>) =>
  client.call('verifyKey', {
    key: secret,
    scope: apikeysV1.ApiKeyScope.API_KEY_SCOPE_CHAT,
    agent_id: '',
    workflow_id: '',
  });

beforeAll(async () => {
  harness = await startApiKeysHarness();
  owner = await harness.createUser();
  const created = await harness.request('POST', '/api-keys', {
    token: owner.token,
    json: { name: 'trust', scopes: ['chat'] },
  });
  expect(created.body.code).toBe(0);
  secret = created.body.data.key;
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

describe('VerifyKey is for the gateway only', () => {
  it('refuses a call without a service token, or with a token for identity', async () => {
    await expect(withClient(undefined, verify)).rejects.toMatchObject(UNAUTHENTICATED);
    const forIdentity = createOutgoingTrust({
      service: 'gateway',
      serviceSigningKey: stackEnv.serviceSigningKey('gateway'),
    }).to('identity');
    await expect(withClient(forIdentity, verify)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses services other than the gateway: 403 / 3000 for a known caller, 401 / 2001 for a stranger', async () => {
    // operator's key is trusted here (RunExpirationCheck) but VerifyKey is not declared for it.
    await expect(withClient(as('operator'), verify)).rejects.toMatchObject(FORBIDDEN);
    // The others are no caller of apikeys: apikeys holds no key of theirs, so nothing they sign counts.
    // (identity holds no service key at all: it calls nobody.)
    for (const service of ['notifications', 'models', 'workflows', 'observability', 'agent-runtime']) {
      await expect(withClient(as(service), verify)).rejects.toMatchObject(UNAUTHENTICATED);
    }
  });

  it("refuses a token under the gateway's or operator's name signed with another service's key (parallel burst)", async () => {
    const forged = (holder: string, claims: string) =>
      createOutgoingTrust({ service: claims, serviceSigningKey: stackEnv.serviceSigningKey(holder) }).to(
        'apikeys',
      );
    const run = (client: ReturnType<typeof apikeysClient>) =>
      client.call('runExpirationCheck', { now: new Date('2031-01-01T09:00:00Z').toISOString() });
    const results = await Promise.allSettled([
      // notifications and workflows run user-configured outbound requests: the likeliest to fall.
      withClient(forged('notifications', 'gateway'), verify),
      withClient(forged('workflows', 'gateway'), verify),
      withClient(forged('models', 'gateway'), verify),
      withClient(forged('notifications', 'operator'), run),
      withClient(forged('gateway', 'operator'), run),
      withClient(as('gateway'), verify), // control: the gateway itself
    ]);
    for (const refused of results.slice(0, 5)) {
      expect(refused).toMatchObject({ status: 'rejected', reason: UNAUTHENTICATED });
    }
    expect(results[5]).toMatchObject({ status: 'fulfilled', value: { user_id: owner.id } });
  });

  it('answers the gateway', async () => {
    expect(await withClient(as('gateway'), verify)).toMatchObject({ user_id: owner.id });
  });
});

describe('the expiry check trigger (RunExpirationCheck) is for operators only', () => {
  const run = (client: ReturnType<typeof apikeysClient>) =>
    client.call('runExpirationCheck', { now: new Date('2031-01-01T09:00:00Z').toISOString() });

  it('refuses a call without a token and from the gateway, serves operator tooling', async () => {
    await expect(withClient(undefined, run)).rejects.toMatchObject(UNAUTHENTICATED);
    await expect(withClient(as('gateway'), run)).rejects.toMatchObject(FORBIDDEN);
    expect(await withClient(as('operator'), run)).toMatchObject({ expiring_sent: expect.any(Number) });
  });
});

describe('a principal reaches apikeys only as the gateway signed it', () => {
  const principalOf = (user: TestUser): Principal => ({
    user_id: user.id,
    username: user.username,
    is_superuser: true,
    permissions: ['*'],
    team_ids: [],
    auth_method: 'jwt',
  });
  const list = (principal: Principal) => (client: ReturnType<typeof apikeysClient>) =>
    client.call(
      'listApiKeys',
      { page: 1, page_size: 10, status: [], user_ids: [], search: '' },
      { principal },
    );

  it('lists with the gateway-signed principal and refuses forged, foreign and mis-addressed ones', async () => {
    const principal = principalOf(owner);
    const listed = await withClient(as('gateway', stackEnv.principalSigningPrivateKey), list(principal));
    expect(listed).toBeDefined();
    // No signature: any process that reaches the port sending its own x-principal-bin.
    await expect(withClient(as('notifications'), list(principal))).rejects.toMatchObject(UNAUTHENTICATED);
    // A signature for identity replayed at apikeys.
    const forIdentity: CallCredentials = {
      async apply(metadata) {
        const signer = new PrincipalSigner(stackEnv.principalSigningPrivateKey);
        const bytes = Buffer.from(JSON.stringify(principal), 'utf8');
        metadata.set(MetadataKeys.principalSignature, await signer.sign('identity', bytes));
      },
    };
    await expect(withClient(forIdentity, list(principal))).rejects.toMatchObject(UNAUTHENTICATED);
    // A different user id under the owner's signature.
    const other = { ...principal, user_id: randomUUID() };
    const ownerSignature: CallCredentials = {
      async apply(metadata) {
        const signer = new PrincipalSigner(stackEnv.principalSigningPrivateKey);
        const bytes = Buffer.from(JSON.stringify(principal), 'utf8');
        metadata.set(MetadataKeys.principalSignature, await signer.sign('apikeys', bytes));
      },
    };
    await expect(withClient(ownerSignature, list(other))).rejects.toMatchObject(UNAUTHENTICATED);
  });
});
