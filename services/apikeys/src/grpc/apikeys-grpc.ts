import { apikeysV1 } from '@platform/contracts';
import { schemaVersion } from '@platform/db';
import { BusinessError } from '@platform/errors';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';
import type { ApiKeysDependencies } from '../deps.js';
import { checkApiKeyExpiration } from '../domain/expiry/check-api-key-expiration.js';
import { deleteApiKey, setApiKeyActive, updateApiKey } from '../domain/keys/change-api-key.js';
import { createApiKey } from '../domain/keys/create-api-key.js';
import { requireKeyManager } from '../domain/keys/key-rules.js';
import { getApiKey, getApiKeyStats, listApiKeys } from '../domain/keys/read-api-keys.js';
import { verifyApiKey } from '../domain/keys/verify-api-key.js';

export const SERVICE_NAME = 'platform.apikeys.v1.ApiKeysService';

/** Entry points of the apikeys service: thin handlers that decode, call a use case, encode. */
export function apikeysGrpc(deps: ApiKeysDependencies) {
  return registration(SERVICE_NAME, apikeysV1.ApiKeysServiceService, {
    getInfo: serviceInfoHandler('apikeys', deps.version, () => schemaVersion(deps.pool)),
    listApiKeys: (request, { principal }) =>
      listApiKeys(deps, requireKeyManager(principal, 'apikey:read'), request),
    getApiKey: (request, { principal }) =>
      getApiKey(deps, requireKeyManager(principal, 'apikey:read'), request.id),
    getApiKeyStats: (_request, { principal }) =>
      getApiKeyStats(deps, requireKeyManager(principal, 'apikey:read')),
    createApiKey: (request, { principal }) =>
      createApiKey(deps, requireKeyManager(principal, 'apikey:create'), request),
    updateApiKey: (request, { principal }) =>
      updateApiKey(deps, requireKeyManager(principal, 'apikey:update'), request),
    setApiKeyActive: (request, { principal }) =>
      setApiKeyActive(deps, requireKeyManager(principal, 'apikey:update'), request.id, request.is_active),
    deleteApiKey: (request, { principal }) =>
      deleteApiKey(deps, requireKeyManager(principal, 'apikey:delete'), request.id),
    verifyKey: (request) => verifyApiKey(deps, request),
    runExpirationCheck: (request) => {
      const now = request.now ? new Date(request.now) : new Date();
      if (Number.isNaN(now.getTime())) {
        throw BusinessError.validation({ now: ['must be an ISO 8601 time'] }, { httpStatus: 400 });
      }
      return checkApiKeyExpiration(deps, now);
    },
  });
}
