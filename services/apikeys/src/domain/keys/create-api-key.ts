import { API_KEY_RULES, type apikeysV1 } from '@platform/contracts';
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

/** The gateway validated the shape already; these re-checks guard calls that bypass the edge. */
export function checkKeyInput(input: {
  name?: string;
  scopes?: string[];
  rateLimit?: number;
  agentIds?: string[];
  workflowIds?: string[];
}): void {
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && (input.name.trim().length < 1 || input.name.length > 100)) {
    errors.name = ['must be 1-100 characters'];
  }
  if (input.scopes?.some((s) => !(API_KEY_RULES.scopes as readonly string[]).includes(s))) {
    errors.scopes = [`allowed values: ${API_KEY_RULES.scopes.join(', ')}`];
  }
  if (input.rateLimit !== undefined && (!Number.isInteger(input.rateLimit) || input.rateLimit < 0)) {
    errors.rate_limit = ['must be an integer >= 0'];
  }
  const max = API_KEY_RULES.maxBindings;
  if ((input.agentIds?.length ?? 0) > max) errors.agent_ids = [`at most ${max}`];
  if ((input.workflowIds?.length ?? 0) > max) errors.workflow_ids = [`at most ${max}`];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors, { httpStatus: 400 });
}

/**
 * Creates a key for the caller and returns the full secret once. The gateway sends defaults for
 * omitted fields; an empty scope list here means the default `["chat"]`.
 */
export async function createApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: apikeysV1.CreateApiKeyRequest,
  origin: RequestOrigin,
): Promise<apikeysV1.CreatedApiKey> {
  const scopes = request.scopes.length > 0 ? [...new Set(request.scopes)] : [...API_KEY_RULES.defaultScopes];
  checkKeyInput({
    name: request.name,
    scopes,
    rateLimit: request.rate_limit,
    agentIds: request.agent_ids,
    workflowIds: request.workflow_ids,
  });
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
