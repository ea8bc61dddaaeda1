import { MODEL_PROVIDERS, MODEL_TYPES } from '@platform/contracts';
import * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { createOutgoingTrust, createServiceClient } from '@platform/grpc';
import { isBusinessError } from '@platform/errors';
import { stackEnv, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from './support/grants-harness.js';
import { createModel, readAllowlist, setAllowlist } from './support/models-admin.js';

// ModelsService.ResolveModelEndpoint: the internal call a workflow llm node makes before it calls
// the model itself (docs/models.md "For workflows").
let harness: GrantsHarness;
let admin: IdentityUser;
let official: string[];
const ORIGIN = 'http://127.0.0.1:9';

const clientAs = (service: string) =>
  createServiceClient(
    modelsV1.ModelsServiceService,
    'platform.models.v1.ModelsService',
    harness.modelsAddress,
    {
      defaultTimeoutMs: 15_000,
      credentials: createOutgoingTrust({
        service,
        serviceSigningKey: stackEnv.serviceSigningKey(service),
      }).to('models'),
    },
  );

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isBusinessError(error)) throw new Error(`expected a business error, got ${String(error)}`);
  return { code: error.code, key: error.data?.error_key };
}

async function model(json: Record<string, unknown>): Promise<string> {
  const res = await createModel(harness, admin.token, json);
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}

beforeAll(async () => {
  harness = await startGrantsHarness();
  admin = await harness.createUser({ roles: ['Admin'], name: 'resolveadmin' });
  official = await readAllowlist(harness, admin);
  await setAllowlist(harness, admin, [...official, ORIGIN]);
}, 90_000);
afterAll(async () => {
  await harness?.stop();
});

describe('ResolveModelEndpoint', () => {
  it('answers workflows the base URL, the decrypted key and the upstream model name', async () => {
    const id = await model({
      provider: 'custom',
      model_id: 'up-1',
      base_url: `${ORIGIN}/v1`,
      api_key: 'sk-secret-1',
    });
    const keyless = await model({ provider: 'openai', model_id: 'gpt-4o-mini' });
    const client = clientAs('workflows');
    try {
      expect(await client.call('resolveModelEndpoint', { model_id: id })).toEqual({
        base_url: `${ORIGIN}/v1`,
        api_key: 'sk-secret-1',
        upstream_model: 'up-1',
        // The contract carries the closed sets as enums (issue 25).
        provider: MODEL_PROVIDERS.toProto('custom'),
        model_type: MODEL_TYPES.toProto('chat'),
      });
      expect(await client.call('resolveModelEndpoint', { model_id: keyless })).toMatchObject({
        base_url: 'https://api.openai.com/v1',
        api_key: '',
      });
      expect(
        await failure(client.call('resolveModelEndpoint', { model_id: crypto.randomUUID() })),
      ).toMatchObject({ code: 6100 });
      expect(await failure(client.call('resolveModelEndpoint', { model_id: 'nope' }))).toMatchObject({
        code: 6100,
      });
    } finally {
      client.close();
    }
  });

  it('refuses a base URL that left the allowlist, and a disabled model', async () => {
    const id = await model({ provider: 'custom', model_id: 'up-2', base_url: `${ORIGIN}/v1` });
    const disabled = await model({
      provider: 'custom',
      model_id: 'up-3',
      base_url: `${ORIGIN}/v1`,
      is_enabled: false,
    });
    const client = clientAs('workflows');
    try {
      expect(await failure(client.call('resolveModelEndpoint', { model_id: disabled }))).toMatchObject({
        code: 6106,
      });
      await setAllowlist(harness, admin, official);
      expect(await failure(client.call('resolveModelEndpoint', { model_id: id }))).toEqual({
        code: 1001,
        key: 'model_endpoint_not_allowed',
      });
    } finally {
      await setAllowlist(harness, admin, [...official, ORIGIN]);
      client.close();
    }
  });

  it('is internal: any caller but workflows is refused (3000; 2001 for a service models holds no key of)', async () => {
    const id = await model({
      provider: 'custom',
      model_id: 'up-4',
      base_url: `${ORIGIN}/v1`,
      api_key: 'sk-secret-4',
    });
    // Callers of models' other methods: 403. The gateway is no caller of models' internal methods
    // (models holds no key of it): 401.
    for (const [service, code] of [
      ['agent-runtime', 3000],
      ['observability', 3000],
      ['gateway', 2001],
    ] as const) {
      const client = clientAs(service);
      try {
        expect(await failure(client.call('resolveModelEndpoint', { model_id: id })), service).toMatchObject({
          code,
        });
      } finally {
        client.close();
      }
    }
  });
});
