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
  createOutgoingTrust({ service, serviceKeys: stackEnv.serviceAuthKey, principalSigningKey }).to('apikeys');

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
  client.call('verifyKey', { key: secret, scope: 'chat', agent_id: '', workflow_id: '' });

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
    const forIdentity = createOutgoingTrust({ service: 'gateway', serviceKeys: stackEnv.serviceAuthKey }).to(
      'identity',
    );
    await expect(withClient(forIdentity, verify)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses services other than the gateway with 403 / 3000', async () => {
    for (const service of ['identity', 'notifications', 'models', 'workflows', 'operator']) {
      await expect(withClient(as(service), verify)).rejects.toMatchObject(FORBIDDEN);
    }
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
