import { API_KEY_SCOPES, type apikeysV1 } from '@platform/contracts';
import { z } from 'zod';

/**
 * The spec's field set per API-key response, from the service's full record: list = every field
 * (with `user`), get = all but `user`, create = `key` + `user` but no `last_used_at`/`agents`/
 * `workflows`, update = `id, name, is_active, updated_at`, activate/deactivate = get without
 * `last_used_at`/`agents`/`workflows`. Empty strings from proto become null.
 */
const orNull = (value: string) => value || null;

const agentSchema = z.object({ id: z.uuid(), name: z.string().nullable(), icon: z.string().nullable() });
const workflowSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable().describe('null when the workflow was deleted or is unknown'),
  deleted: z.boolean().describe('the workflow was deleted; the key stays bound to it (no widening)'),
});
const baseSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  key_prefix: z.string(),
  user_id: z.uuid(),
  scopes: z.array(z.enum(API_KEY_SCOPES.names)),
  rate_limit: z.number().int().describe('requests per minute, 0 = unlimited; metadata only, never enforced'),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
const userSchema = z.object({ id: z.uuid(), username: z.string().nullable() });
export const apiKeyStateSchema = baseSchema;
export const apiKeyDetailSchema = baseSchema.extend({
  last_used_at: z.string().nullable(),
  agents: z.array(agentSchema),
  workflows: z.array(workflowSchema),
});
export const apiKeyListItemSchema = apiKeyDetailSchema.extend({ user: userSchema });
export const apiKeyCreatedSchema = baseSchema.extend({
  key: z.string().describe('the full secret; shown only in this response'),
  user: userSchema,
});
export const apiKeyUpdatedSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  is_active: z.boolean(),
  updated_at: z.string(),
});

function toState(key: apikeysV1.ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    key_prefix: key.key_prefix,
    user_id: key.user_id,
    scopes: key.scopes.flatMap((scope) => API_KEY_SCOPES.fromProto(scope) ?? []),
    rate_limit: key.rate_limit,
    is_active: key.is_active,
    expires_at: orNull(key.expires_at),
    created_at: key.created_at,
    updated_at: key.updated_at,
  };
}

const toUser = (key: apikeysV1.ApiKeyRecord) => ({
  id: key.user_id,
  username: orNull(key.user?.username ?? ''),
});

export function toApiKeyDetail(key: apikeysV1.ApiKeyRecord) {
  return {
    ...toState(key),
    last_used_at: orNull(key.last_used_at),
    agents: key.agents.map((a) => ({ id: a.id, name: orNull(a.name), icon: orNull(a.icon) })),
    workflows: key.workflows.map((w) => ({ id: w.id, name: orNull(w.name), deleted: w.deleted })),
  };
}

export const toApiKeyListItem = (key: apikeysV1.ApiKeyRecord) => ({
  ...toApiKeyDetail(key),
  user: toUser(key),
});
export const toApiKeyState = toState;

export function toApiKeyCreated(created: apikeysV1.CreatedApiKey) {
  const key = created.api_key!;
  return { ...toState(key), key: created.key, user: toUser(key) };
}

export function toApiKeyUpdated(key: apikeysV1.UpdatedApiKey) {
  return { id: key.id, name: key.name, is_active: key.is_active, updated_at: key.updated_at };
}
