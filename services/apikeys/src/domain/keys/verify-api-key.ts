import type { ApiKeyScope, apikeysV1 } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import { findByPrefix } from '../../data/api-keys-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
import { keyMatchesHash, keyPrefixOf } from './key-format.js';
import { scopeValues } from './key-views.js';

/** A verification request with the needed scope by name; undefined: none (or unknown) was named. */
export type VerifyKeyQuery = Omit<apikeysV1.VerifyKeyRequest, 'scope'> & { scope: ApiKeyScope | undefined };

/**
 * The gateway's check of a presented key, in this order: malformed, unknown or wrong secret
 * 401/2001 (`api_key_invalid`); expired 401/2002 (an expired key is only expired, whatever
 * `is_active`); inactive 401/2001; scope missing 403/3000 (`api_key_scope_missing`); agent or
 * workflow binding mismatch 403/3000 (`api_key_no_agent_access` / `api_key_no_workflow_access`).
 */
export async function verifyApiKey(
  deps: ApiKeysDependencies,
  request: VerifyKeyQuery,
  now = new Date(),
): Promise<apikeysV1.VerifiedKey> {
  const prefix = keyPrefixOf(request.key);
  if (!prefix) throw BusinessError.named('api_key_invalid');
  // Read the revision BEFORE the key (see key-revisions.ts).
  const revision = await deps.revisions.current(prefix);
  const row = await findByPrefix(deps.pool, prefix);
  if (!row || !keyMatchesHash(request.key, row.key_hash)) throw BusinessError.named('api_key_invalid');
  if (row.expires_at && row.expires_at.getTime() <= now.getTime())
    throw BusinessError.named('api_key_expired');
  if (!row.is_active) throw BusinessError.named('api_key_invalid');
  if (!request.scope || !row.scopes.includes(request.scope)) {
    throw BusinessError.named('api_key_scope_missing', { data: { scope: request.scope ?? '' } });
  }
  if (request.agent_id && row.agent_ids.length > 0 && !row.agent_ids.includes(request.agent_id)) {
    throw BusinessError.named('api_key_no_agent_access');
  }
  if (request.workflow_id && row.workflow_ids.length > 0 && !row.workflow_ids.includes(request.workflow_id)) {
    throw BusinessError.named('api_key_no_workflow_access');
  }
  await deps.lastUsed
    .record(row.id)
    .catch((err: unknown) => deps.logger.warn({ err }, 'key use not recorded'));
  const usernames = await deps.users.usernames([row.user_id]).catch(() => new Map<string, string>());
  return {
    key_id: row.id,
    user_id: row.user_id,
    username: usernames.get(row.user_id) ?? '',
    scopes: scopeValues(row.scopes),
    expires_at: row.expires_at ? row.expires_at.toISOString() : '',
    revision_key: deps.revisions.revisionKey(prefix),
    revision,
    usage_key: deps.lastUsed.usageKey,
  };
}
