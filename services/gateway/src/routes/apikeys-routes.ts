import { API_KEY_RULES, API_KEY_SCOPES, API_KEY_STATUSES, type apikeysV1 } from '@platform/contracts';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import {
  apiKeyCreatedSchema,
  apiKeyDetailSchema,
  apiKeyListItemSchema,
  apiKeyStateSchema,
  apiKeyUpdatedSchema,
  toApiKeyCreated,
  toApiKeyDetail,
  toApiKeyListItem,
  toApiKeyState,
  toApiKeyUpdated,
} from './apikeys-presenters.js';
import { defineRoute, type RouteContext } from './route-definition.js';
import { nonBlankText, pagingQuery, repeatable } from './validation.js';

const INT32_MAX = 2_147_483_647;

const name = nonBlankText(100);
const scopes = z.array(z.enum(API_KEY_SCOPES.names)).min(1).max(API_KEY_SCOPES.names.length);
const rateLimit = z
  .number()
  .int()
  .min(0)
  .max(INT32_MAX)
  .describe('per minute, 0 = unlimited; never enforced');
const ids = z.array(z.uuid()).max(API_KEY_RULES.maxBindings);
const expiresAt = z.iso
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
  .nullable();

const keyParams = z.object({ key_id: z.uuid() });
type KeyParams = z.infer<typeof keyParams>;
const listQuery = z.object({
  ...pagingQuery,
  status: repeatable(z.enum(API_KEY_STATUSES.names)).optional(),
  user_id: repeatable(z.uuid()).pipe(z.array(z.uuid()).max(100)).optional(),
  search: z.string().max(100).optional(),
});
type ListQuery = z.infer<typeof listQuery>;
const createBody = z
  .object({
    name,
    scopes: scopes.default([...API_KEY_RULES.defaultScopes]),
    rate_limit: rateLimit.default(API_KEY_RULES.defaultRateLimit),
    expires_at: expiresAt.optional(),
    agent_ids: ids.default([]),
    workflow_ids: ids.default([]),
  })
  .strict();
type CreateBody = z.infer<typeof createBody>;
const updateBody = z
  .object({
    name: name.optional(),
    scopes: scopes.optional(),
    rate_limit: rateLimit.optional(),
    is_active: z.boolean().optional(),
    agent_ids: ids.optional(),
    workflow_ids: ids.optional(),
  })
  .strict();
type UpdateBody = z.infer<typeof updateBody>;

/** Spec: API-key management is for JWT users only (auth `user`; an API key gets 403 / 3000). */
const base = { tags: ['api-keys'], auth: 'user' as const };

/** Where a change came from, for the key's audit trail. */
function callerOrigin(context: Pick<RouteContext<ServiceClients>, 'ip' | 'userAgent'>) {
  return { ip: context.ip, user_agent: context.userAgent };
}
type Key = apikeysV1.ApiKeyRecord;

function setActiveRoute(action: 'activate' | 'deactivate') {
  return defineRoute<ServiceClients, KeyParams, undefined, undefined, Key>({
    ...base,
    method: 'post',
    path: `/api-keys/:key_id/${action}`,
    summary: action === 'activate' ? 'Set a key active' : 'Set a key inactive',
    permission: 'apikey:update',
    params: keyParams,
    response: apiKeyStateSchema,
    invoke: ({ params }, context) =>
      context.clients.apikeys.call(
        'setApiKeyActive',
        { id: params.key_id, is_active: action === 'activate', origin: callerOrigin(context) },
        { principal: context.principal },
      ),
    present: toApiKeyState,
  });
}

export const apikeysRoutes = [
  // Before `/api-keys/:key_id`, so `stats` is not taken for a key id.
  defineRoute<ServiceClients, undefined, undefined, undefined, apikeysV1.ApiKeyStats>({
    ...base,
    method: 'get',
    path: '/api-keys/stats',
    summary: 'Counts over the keys visible to the caller',
    permission: 'apikey:read',
    response: z.object({
      total: z.number().int(),
      active: z.number().int(),
      inactive: z.number().int(),
      expired: z.number().int(),
    }),
    invoke: (_input, { clients, principal }) => clients.apikeys.call('getApiKeyStats', {}, { principal }),
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, apikeysV1.ListApiKeysResponse>({
    ...base,
    method: 'get',
    path: '/api-keys',
    summary: 'Paged list, newest first (own keys; global admins: all, filterable by user_id)',
    permission: 'apikey:read',
    query: listQuery,
    response: z.object({
      items: z.array(apiKeyListItemSchema),
      total: z.number().int(),
      page: z.number().int(),
      page_size: z.number().int(),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.apikeys.call(
        'listApiKeys',
        {
          page: query.page,
          page_size: query.page_size,
          status: (query.status ?? []).map(API_KEY_STATUSES.toProto),
          user_ids: query.user_id ?? [],
          search: query.search,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toApiKeyListItem) }),
  }),
  defineRoute<ServiceClients, KeyParams, undefined, undefined, Key>({
    ...base,
    method: 'get',
    path: '/api-keys/:key_id',
    summary: 'One key',
    permission: 'apikey:read',
    params: keyParams,
    response: apiKeyDetailSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.apikeys.call('getApiKey', { id: params.key_id }, { principal }),
    present: toApiKeyDetail,
  }),
  defineRoute<ServiceClients, undefined, undefined, CreateBody, apikeysV1.CreatedApiKey>({
    ...base,
    method: 'post',
    path: '/api-keys',
    errors: [{ code: ErrorCode.VALIDATION_ERROR, status: 400 }],
    summary: 'Create a key; the full `key` is returned once',
    permission: 'apikey:create',
    body: createBody,
    response: apiKeyCreatedSchema,
    invoke: ({ body }, context) =>
      context.clients.apikeys.call(
        'createApiKey',
        {
          name: body.name,
          scopes: body.scopes.map(API_KEY_SCOPES.toProto),
          rate_limit: body.rate_limit,
          expires_at: body.expires_at ?? undefined,
          agent_ids: body.agent_ids,
          workflow_ids: body.workflow_ids,
          origin: callerOrigin(context),
        },
        { principal: context.principal },
      ),
    present: toApiKeyCreated,
  }),
  defineRoute<ServiceClients, KeyParams, undefined, UpdateBody, apikeysV1.UpdatedApiKey>({
    ...base,
    method: 'put',
    path: '/api-keys/:key_id',
    errors: [{ code: ErrorCode.VALIDATION_ERROR, status: 400 }],
    summary: 'Partial update; applies to the very next request made with the key',
    permission: 'apikey:update',
    params: keyParams,
    body: updateBody,
    response: apiKeyUpdatedSchema,
    invoke: ({ params, body }, context) =>
      context.clients.apikeys.call(
        'updateApiKey',
        {
          id: params.key_id,
          name: body.name,
          scopes: body.scopes ? { scopes: body.scopes.map(API_KEY_SCOPES.toProto) } : undefined,
          rate_limit: body.rate_limit,
          is_active: body.is_active,
          agent_ids: body.agent_ids ? { ids: body.agent_ids } : undefined,
          workflow_ids: body.workflow_ids ? { ids: body.workflow_ids } : undefined,
          origin: callerOrigin(context),
        },
        { principal: context.principal },
      ),
    present: toApiKeyUpdated,
  }),
  defineRoute<ServiceClients, KeyParams, undefined, undefined, apikeysV1.DeleteApiKeyResponse>({
    ...base,
    method: 'delete',
    path: '/api-keys/:key_id',
    summary: 'Delete (revoke) a key; it fails on the very next request',
    permission: 'apikey:delete',
    params: keyParams,
    response: z.null(),
    invoke: ({ params }, context) =>
      context.clients.apikeys.call(
        'deleteApiKey',
        { id: params.key_id, origin: callerOrigin(context) },
        { principal: context.principal },
      ),
    present: () => null,
  }),
  setActiveRoute('activate'),
  setActiveRoute('deactivate'),
];
