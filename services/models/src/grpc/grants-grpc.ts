import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { internalOnly, registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import { requireGrantAdmin } from '../domain/grants/grant-rules.js';
import type { GrantsDeps } from '../domain/grants/grants-deps.js';
import { listModelsForBuilder } from '../domain/grants/list-available-models.js';
import {
  grantTeamModel,
  listTeamGrants,
  revokeTeamGrant,
  updateTeamGrant,
} from '../domain/grants/manage-team-grants.js';
import { authorizeModelUse } from '../domain/quota/authorize-model-use.js';
import { getModelUsageTotals, listModelUsage } from '../domain/quota/read-usage.js';
import { recordModelUsage } from '../domain/quota/record-model-usage.js';
import { QUOTA_INTERNAL_CALLERS } from './internal-callers.js';

export const GRANTS_SERVICE_NAME = 'platform.models.v1.ModelGrantsService';
export const QUOTA_SERVICE_NAME = 'platform.models.v1.ModelQuotaService';

/** Team grants and the builders' model list: the gateway's routes, with a principal. */
export function grantsGrpc(deps: GrantsDeps) {
  return registration(GRANTS_SERVICE_NAME, grantsV1.ModelGrantsServiceService, {
    listTeamModels: (request, { principal }) => {
      requireGrantAdmin(principal);
      return listTeamGrants(deps, request);
    },
    grantTeamModel: (request, { principal }) => grantTeamModel(deps, requireGrantAdmin(principal), request),
    updateTeamModel: (request, { principal }) => {
      requireGrantAdmin(principal);
      return updateTeamGrant(deps, request);
    },
    revokeTeamModel: (request, { principal }) => revokeTeamGrant(deps, requireGrantAdmin(principal), request),
    listAvailableModels: (request, { principal }) =>
      listModelsForBuilder(deps, requirePrincipal(principal), request),
  });
}

/** The quota contract (agent runtime, workflows) and usage reads (observability): internal-only. */
export function quotaGrpc(deps: GrantsDeps) {
  const service = registration(QUOTA_SERVICE_NAME, grantsV1.ModelQuotaServiceService, {
    authorizeModelUse: (request) => authorizeModelUse(deps, request),
    recordModelUsage: (request) => recordModelUsage(deps, request),
    listModelUsage: (request) => listModelUsage(deps, request),
    getModelUsageTotals: (request) => getModelUsageTotals(deps, request),
  });
  return internalOnly(service, QUOTA_INTERNAL_CALLERS);
}
