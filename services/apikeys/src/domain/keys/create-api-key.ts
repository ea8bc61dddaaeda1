import { API_KEY_RULES, type ApiKeyScope, type apikeysV1 } from '@platform/contracts';
import { withTransaction } from '@platform/db';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findKey, insertKey, replaceBindings } from '../../data/api-keys-repository.js';
import type { RequestOrigin } from '@platform/grpc';
import { writeKeyAudit } from '../../data/key-audit-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
import { generateKey } from './key-format.js';
import { toOwnFields } from './key-views.js';

const UNIQUE_VIOLATION = '23505';

const nonEmpty = (ids: string[]) => (ids.length > 0 ? ids : undefined);

/** A create request with its scopes by name (the handler translated the enum values). */
export type CreateKeyRequest = Omit<apikeysV1.CreateApiKeyRequest, 'scopes'> & { scopes: ApiKeyScope[] };

/**
 * Creates a key for the caller and returns the full secret once. The gateway sends defaults for
 * omitted fields; an empty scope list here means the default `["chat"]`. The request's shape (name
 * length, rate limit, binding counts) is the gateway schema's (API_KEY_RULES), which is the only
 * caller of this RPC: only the expiry, which depends on the time here, is checked again.
 */
export async function createApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: CreateKeyRequest,
  origin: RequestOrigin,
): Promise<apikeysV1.CreatedApiKey> {
  const scopes = request.scopes.length > 0 ? request.scopes : [...API_KEY_RULES.defaultScopes];
  const expiresAt = request.expires_at ? new Date(request.expires_at) : null;
  if (expiresAt && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now())) {
    throw BusinessError.validation({ expires_at: ['must be a future ISO 8601 time'] }, { httpStatus: 400 });
  }
  for (let attempt = 0; ; attempt += 1) {
    const fresh = generateKey();
    try {
      const id = await withTransaction(deps.pool, async (tx) => {
        const keyId = await insertKey(tx, {
          userId: caller.user_id,
          name: request.name.trim(),
          keyPrefix: fresh.prefix,
          keyHash: fresh.hash,
          scopes,
          rateLimit: request.rate_limit ?? API_KEY_RULES.defaultRateLimit,
          expiresAt,
        });
        // A new key has no bindings to replace: only non-empty lists are written.
        await replaceBindings(tx, keyId, nonEmpty(request.agent_ids), nonEmpty(request.workflow_ids));
        await writeKeyAudit(tx, {
          keyId,
          action: 'api_key.create',
          actorUserId: caller.user_id,
          origin,
          details: {
            name: request.name.trim(),
            scopes,
            rate_limit: request.rate_limit ?? API_KEY_RULES.defaultRateLimit,
            expires_at: expiresAt?.toISOString() ?? null,
            agent_ids: request.agent_ids,
            workflow_ids: request.workflow_ids,
          },
        });
        return keyId;
      });
      // The owner is the caller: the username comes from the principal, not from identity.
      const record = toOwnFields((await findKey(deps.pool, id, null))!, caller.username);
      deps.logger.info({ api_key_id: id, key_prefix: fresh.prefix }, 'api key created');
      return { api_key: record, key: fresh.key };
    } catch (error) {
      // 72 random bits make a prefix collision practically impossible; retry once if it happens.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION && attempt === 0) continue;
      throw error;
    }
  }
}
