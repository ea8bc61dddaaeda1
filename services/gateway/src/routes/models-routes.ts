import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { MODEL_PROVIDERS, MODEL_TYPES } from '@platform/contracts';
import {
  createModelBody,
  discoverBody,
  listFilters,
  modelIdParams,
  modelSchema,
  providerSchema,
  testModelBody,
  modelTypeNameOf,
  toModel,
  toProvider,
  updateModelBody,
  type DiscoverBody,
  type ModelBody,
  type ModelIdParams,
  type TestModelBody,
} from './models-schemas.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery } from './validation.js';

const listQuery = z.object({ ...pagingQuery, ...listFilters });
type ListQuery = z.infer<typeof listQuery>;
const base = { tags: ['models'], auth: 'user' as const };
/** Field rules the service checks beyond the shape: 1001 at HTTP 400 with `data.error_key`. */
const ruleFailure = { code: ErrorCode.VALIDATION_ERROR, status: 400 };

export const modelsRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, modelsV1.ListProvidersResponse>({
    ...base,
    method: 'get',
    path: '/models/providers',
    summary: 'The 23 model providers: types, default endpoints, embedding support, the decision provider',
    response: z.object({ items: z.array(providerSchema) }),
    invoke: (_input, { clients, principal }) => clients.models.call('listProviders', {}, { principal }),
    present: (list) => ({ items: list.items.map(toProvider) }),
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, modelsV1.ListModelTypesResponse>({
    ...base,
    method: 'get',
    path: '/models/types',
    summary: 'The 9 model types',
    response: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
    invoke: (_input, { clients, principal }) => clients.models.call('listModelTypes', {}, { principal }),
    present: (list) => ({ items: list.items.map((type) => ({ ...type, id: modelTypeNameOf(type.id) })) }),
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, modelsV1.ListModelsResponse>({
    ...base,
    method: 'get',
    path: '/admin/models',
    // Global admin access or admin:model:create|update: an either-or the service checks.
    summary: 'Model definitions by sort_order then name (global admin or admin:model:create|update)',
    query: listQuery,
    errors: [ErrorCode.PERMISSION_DENIED],
    response: z.object({
      items: z.array(modelSchema),
      total: z.number().int(),
      page: z.number().int(),
      page_size: z.number().int(),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.models.call(
        'listModels',
        {
          page: query.page,
          page_size: query.page_size,
          provider: query.provider && MODEL_PROVIDERS.toProto(query.provider),
          model_type: query.model_type && MODEL_TYPES.toProto(query.model_type),
          is_enabled: query.is_enabled,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toModel) }),
  }),
  defineRoute<ServiceClients, ModelIdParams, undefined, undefined, modelsV1.Model>({
    ...base,
    method: 'get',
    path: '/admin/models/:model_id',
    summary: 'One model definition (the API key never, only api_key_set)',
    params: modelIdParams,
    errors: [ErrorCode.PERMISSION_DENIED, ErrorCode.MODEL_NOT_FOUND],
    response: modelSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.models.call('getModel', { id: params.model_id }, { principal }),
    present: toModel,
  }),
  defineRoute<ServiceClients, undefined, undefined, ModelBody, modelsV1.Model>({
    ...base,
    method: 'post',
    path: '/admin/models',
    permission: 'admin:model:create',
    summary: 'Create a model definition',
    body: createModelBody,
    errors: [ruleFailure],
    response: modelSchema,
    invoke: ({ body }, { clients, principal }) =>
      clients.models.call('createModel', { id: '', fields: body }, { principal }),
    present: toModel,
  }),
  defineRoute<ServiceClients, ModelIdParams, undefined, ModelBody, modelsV1.Model>({
    ...base,
    method: 'put',
    path: '/admin/models/:model_id',
    permission: 'admin:model:update',
    summary: 'Update a model definition (partial)',
    params: modelIdParams,
    body: updateModelBody,
    errors: [ruleFailure, ErrorCode.MODEL_NOT_FOUND],
    response: modelSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.models.call('updateModel', { id: params.model_id, fields: body }, { principal }),
    present: toModel,
  }),
  defineRoute<ServiceClients, ModelIdParams, undefined, undefined, modelsV1.DeleteModelResponse>({
    ...base,
    method: 'delete',
    path: '/admin/models/:model_id',
    permission: 'admin:model:delete',
    summary: 'Delete a model definition (its team grants go with it)',
    params: modelIdParams,
    errors: [ErrorCode.MODEL_NOT_FOUND],
    response: z.null(),
    invoke: ({ params }, { clients, principal }) =>
      clients.models.call('deleteModel', { id: params.model_id }, { principal }),
    present: () => null,
  }),
  defineRoute<ServiceClients, ModelIdParams, undefined, TestModelBody, modelsV1.TestModelResponse>({
    ...base,
    method: 'post',
    path: '/admin/models/:model_id/test',
    permission: 'admin:model:create',
    summary: 'Connectivity test: one light upstream call (overrides used once, never saved)',
    params: modelIdParams,
    body: testModelBody,
    errors: [ruleFailure, ErrorCode.MODEL_NOT_FOUND],
    response: z.object({ success: z.boolean(), message: z.string(), latency_ms: z.number().nullable() }),
    invoke: ({ params, body }, { clients, principal }) =>
      clients.models.call(
        'testModel',
        { id: params.model_id, api_key: body?.api_key, base_url: body?.base_url },
        { principal },
      ),
    present: (result) => ({ ...result, latency_ms: result.latency_ms ?? null }),
  }),
  defineRoute<ServiceClients, undefined, undefined, DiscoverBody, modelsV1.DiscoverModelsResponse>({
    ...base,
    method: 'post',
    path: '/admin/models/discover',
    permission: 'admin:model:create',
    summary: "The upstream's model ids for a provider",
    body: discoverBody,
    errors: [ruleFailure, ErrorCode.BAD_REQUEST],
    response: z.object({ models: z.array(z.string()) }),
    invoke: ({ body }, { clients, principal }) =>
      clients.models.call(
        'discoverModels',
        { provider: MODEL_PROVIDERS.toProto(body.provider), base_url: body.base_url, api_key: body.api_key },
        { principal },
      ),
  }),
];
