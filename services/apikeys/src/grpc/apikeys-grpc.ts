import { API_KEY_SCOPES, apikeysV1 } from '@platform/contracts';
import { schemaVersion } from '@platform/db';
import { BusinessError } from '@platform/errors';
import { internalOnly, readOrigin, registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';
import type { ApiKeysDependencies } from '../deps.js';
import { checkApiKeyExpiration } from '../domain/expiry/check-api-key-expiration.js';
import { deleteApiKey, setApiKeyActive, updateApiKey } from '../domain/keys/change-api-key.js';
import { createApiKey } from '../domain/keys/create-api-key.js';
import { listApiKeyAudit } from '../domain/audit/list-key-audit.js';
import { GLOBAL_ADMIN_PERMISSION } from '@platform/rbac';
import { requireKeyManager } from '../domain/keys/key-rules.js';
import { getApiKey, getApiKeyStats, listApiKeys } from '../domain/keys/read-api-keys.js';
import { verifyApiKey } from '../domain/keys/verify-api-key.js';
import { INTERNAL_CALLERS } from './internal-callers.js';
import { requestedScopes, requestedStatuses } from './key-requests.js';

export const SERVICE_NAME = 'platform.apikeys.v1.ApiKeysService';

/** Entry points of the apikeys service: thin handlers that decode, call a use case, encode. */
export function apikeysGrpc(deps: ApiKeysDependencies) {
  const service = registration(SERVICE_NAME, apikeysV1.ApiKeysServiceService, {
    getInfo: serviceInfoHandler('apikeys', deps.version, () => schemaVersion(deps.pool)),
    listApiKeys: (request, { principal }) =>
      listApiKeys(deps, requireKeyManager(principal, 'apikey:read'), {
        ...request,
        status: requestedStatuses(request.status),
      }),
    getApiKey: (request, { principal }) =>
      getApiKey(deps, requireKeyManager(principal, 'apikey:read'), request.id),
    getApiKeyStats: (_request, { principal }) =>
      getApiKeyStats(deps, requireKeyManager(principal, 'apikey:read')),
    createApiKey: (request, context) =>
      createApiKey(
        deps,
        requireKeyManager(context.principal, 'apikey:create'),
        { ...request, scopes: requestedScopes(request.scopes) },
        readOrigin(request.origin, context),
      ),
    updateApiKey: (request, context) =>
      updateApiKey(
        deps,
        requireKeyManager(context.principal, 'apikey:update'),
        { ...request, scopes: request.scopes && requestedScopes(request.scopes.scopes) },
        readOrigin(request.origin, context),
      ),
    setApiKeyActive: (request, context) =>
      setApiKeyActive(
        deps,
        requireKeyManager(context.principal, 'apikey:update'),
        request.id,
        request.is_active,
        readOrigin(request.origin, context),
      ),
    deleteApiKey: (request, context) =>
      deleteApiKey(
        deps,
        requireKeyManager(context.principal, 'apikey:delete'),
        request.id,
        readOrigin(request.origin, context),
      ),
    listApiKeyAudit: (request, { principal }) =>
      listApiKeyAudit(deps, requireKeyManager(principal, GLOBAL_ADMIN_PERMISSION), request),
    verifyKey: (request) =>
      verifyApiKey(deps, { ...request, scope: API_KEY_SCOPES.fromProto(request.scope) }, deps.now()),
    runExpirationCheck: (request) => {
      const now = request.now ? new Date(request.now) : deps.now();
      if (Number.isNaN(now.getTime())) {
        throw BusinessError.validation({ now: ['must be an ISO 8601 time'] }, { httpStatus: 400 });
      }
      return checkApiKeyExpiration(deps, now);
    },
  });
  return internalOnly(service, INTERNAL_CALLERS);
}
