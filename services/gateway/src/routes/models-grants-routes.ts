import { MODEL_TYPES } from '@platform/contracts';
import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { modelTypeNameOf, providerNameOf } from './models-schemas.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery } from './validation.js';

/** Whole numbers from 1 that JSON and JavaScript carry exactly; null = unlimited. */
const quota = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable();

const teamParams = z.object({ team_id: z.uuid() });
const grantParams = z.object({ team_id: z.uuid(), model_id: z.uuid() });
type TeamParams = z.infer<typeof teamParams>;
type GrantParams = z.infer<typeof grantParams>;
const pageQuery = z.object(pagingQuery);
type PageQuery = z.infer<typeof pageQuery>;
const modelsQuery = z.object({ ...pagingQuery, model_type: z.enum(MODEL_TYPES.names).optional() });
type ModelsQuery = z.infer<typeof modelsQuery>;
const grantBody = z
  .object({
    model_id: z.uuid(),
    is_enabled: z.boolean().default(true),
    token_quota: quota.default(null),
    request_quota: quota.default(null),
  })
  .strict();
type GrantBody = z.infer<typeof grantBody>;
const updateBody = z
  .object({
    is_enabled: z.boolean().optional(),
    token_quota: quota.optional(),
    request_quota: quota.optional(),
  })
  .strict();
type UpdateBody = z.infer<typeof updateBody>;

const usageSchema = z.object({
  period: z.string().describe('YYYY-MM, the calendar month in the server timezone'),
  period_start: z.string(),
  period_end: z.string(),
  tokens: z.number().int(),
  requests: z.number().int(),
  tokens_remaining: z.number().int().nullable(),
  requests_remaining: z.number().int().nullable(),
});
const grantSchema = z.object({
  id: z.uuid(),
  team_id: z.uuid(),
  model_id: z.uuid(),
  model: z.object({
    id: z.uuid(),
    name: z.string(),
    provider: z.string(),
    provider_display_name: z.string().nullable(),
    model_type: z.string(),
    is_enabled: z.boolean(),
  }),
  is_enabled: z.boolean(),
  token_quota: z.number().int().nullable(),
  request_quota: z.number().int().nullable(),
  usage: usageSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
const availableModelSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  provider: z.string(),
  provider_display_name: z.string().nullable(),
  model_type: z.string(),
  capabilities: z.record(z.string(), z.unknown()).nullable(),
  context_length: z.number().int().nullable(),
  is_default: z.boolean(),
});
const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

const remaining = (quotaValue: number | undefined, used: number) =>
  quotaValue === undefined ? null : Math.max(0, quotaValue - used);

function toGrant(grant: grantsV1.TeamModelGrant) {
  const usage = grant.usage!;
  return {
    id: grant.id,
    team_id: grant.team_id,
    model_id: grant.model_id,
    model: {
      ...grant.model!,
      provider: providerNameOf(grant.model!.provider),
      model_type: modelTypeNameOf(grant.model!.model_type),
      provider_display_name: grant.model?.provider_display_name || null,
    },
    is_enabled: grant.is_enabled,
    token_quota: grant.token_quota ?? null,
    request_quota: grant.request_quota ?? null,
    usage: {
      ...usage,
      tokens_remaining: remaining(grant.token_quota, usage.tokens),
      requests_remaining: remaining(grant.request_quota, usage.requests),
    },
    created_at: grant.created_at,
    updated_at: grant.updated_at,
  };
}

function toAvailableModel(model: grantsV1.AvailableModel) {
  return {
    id: model.id,
    name: model.name,
    provider: providerNameOf(model.provider),
    provider_display_name: model.provider_display_name || null,
    model_type: modelTypeNameOf(model.model_type),
    capabilities: model.capabilities ?? null,
    context_length: model.context_length || null,
    is_default: model.is_default,
  };
}

const grantsBase = { tags: ['models'], auth: 'user' as const, permission: 'admin:model:update' };
const quotaChange = (value: number | null | undefined) =>
  value === undefined ? undefined : { limit: value ?? undefined };

export const modelsGrantsRoutes = [
  defineRoute<ServiceClients, undefined, ModelsQuery, undefined, grantsV1.ListAvailableModelsResponse>({
    method: 'get',
    path: '/models',
    tags: ['models'],
    auth: 'user',
    summary: "Enabled models granted (enabled grant) to the caller's teams: the builders' model picker",
    query: modelsQuery,
    response: paged(availableModelSchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.modelGrants.call(
        'listAvailableModels',
        {
          page: query.page,
          page_size: query.page_size,
          model_type: query.model_type ? MODEL_TYPES.toProto(query.model_type) : 0,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toAvailableModel) }),
  }),
  defineRoute<ServiceClients, TeamParams, PageQuery, undefined, grantsV1.ListTeamModelsResponse>({
    ...grantsBase,
    method: 'get',
    path: '/admin/teams/:team_id/models',
    summary: "A team's model grants with quotas and the current period's usage",
    params: teamParams,
    query: pageQuery,
    errors: [ErrorCode.TEAM_NOT_FOUND],
    response: paged(grantSchema),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.modelGrants.call(
        'listTeamModels',
        { team_id: params.team_id, page: query.page, page_size: query.page_size },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toGrant) }),
  }),
  defineRoute<ServiceClients, TeamParams, undefined, GrantBody, grantsV1.TeamModelGrant>({
    ...grantsBase,
    method: 'post',
    path: '/admin/teams/:team_id/models',
    summary: 'Grant a model to a team (quotas per calendar month; null = unlimited)',
    params: teamParams,
    body: grantBody,
    errors: [ErrorCode.TEAM_NOT_FOUND, ErrorCode.MODEL_NOT_FOUND, ErrorCode.TEAM_MODEL_EXISTS],
    response: grantSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.modelGrants.call(
        'grantTeamModel',
        {
          team_id: params.team_id,
          model_id: body.model_id,
          is_enabled: body.is_enabled,
          token_quota: body.token_quota ?? undefined,
          request_quota: body.request_quota ?? undefined,
        },
        { principal },
      ),
    present: toGrant,
  }),
  defineRoute<ServiceClients, GrantParams, undefined, UpdateBody, grantsV1.TeamModelGrant>({
    ...grantsBase,
    method: 'put',
    path: '/admin/teams/:team_id/models/:model_id',
    summary: "Change a grant's is_enabled or quotas (partial; null = unlimited)",
    params: grantParams,
    body: updateBody,
    errors: [ErrorCode.TEAM_NOT_FOUND, ErrorCode.TEAM_MODEL_NOT_FOUND],
    response: grantSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.modelGrants.call(
        'updateTeamModel',
        {
          team_id: params.team_id,
          model_id: params.model_id,
          is_enabled: body.is_enabled,
          token_quota: quotaChange(body.token_quota),
          request_quota: quotaChange(body.request_quota),
        },
        { principal },
      ),
    present: toGrant,
  }),
  defineRoute<ServiceClients, GrantParams, undefined, undefined, grantsV1.RevokeTeamModelResponse>({
    ...grantsBase,
    method: 'delete',
    path: '/admin/teams/:team_id/models/:model_id',
    summary: "Revoke a team's grant (the period's usage counters stay)",
    params: grantParams,
    errors: [ErrorCode.TEAM_NOT_FOUND, ErrorCode.TEAM_MODEL_NOT_FOUND],
    response: z.null(),
    invoke: ({ params }, { clients, principal }) =>
      clients.modelGrants.call(
        'revokeTeamModel',
        { team_id: params.team_id, model_id: params.model_id },
        { principal },
      ),
    present: () => null,
  }),
];
