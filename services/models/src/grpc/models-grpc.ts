import * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { schemaVersion } from '@platform/db';
import { internalOnly, registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import { serviceInfoHandler } from '@platform/runtime';
import type { ModelsDependencies } from '../deps.js';
import { MODELS_INTERNAL_CALLERS } from './internal-callers.js';
import { listModelTypes, listProviders } from '../domain/catalog/catalog-views.js';
import { discoverModels } from '../domain/connectivity/discover-models.js';
import { resolveModelEndpoint } from '../domain/connectivity/resolve-model-endpoint.js';
import { testModel } from '../domain/connectivity/test-model.js';
import { requireModelPermission, requireModelReader } from '../domain/models/model-access.js';
import {
  changeModel,
  createModel,
  getModel,
  listModels,
  removeModel,
} from '../domain/models/manage-models.js';

export const SERVICE_NAME = 'platform.models.v1.ModelsService';

/** Entry points of the catalog and model administration: thin handlers that decode, call a use case, encode. */
export function modelsGrpc(deps: ModelsDependencies) {
  const service = registration(SERVICE_NAME, modelsV1.ModelsServiceService, {
    getInfo: serviceInfoHandler('models', deps.version, () => schemaVersion(deps.pool)),
    listProviders: async (_request, { principal }) => {
      requirePrincipal(principal);
      return listProviders();
    },
    listModelTypes: async (_request, { principal }) => {
      requirePrincipal(principal);
      return listModelTypes();
    },
    listModels: (request, { principal }) => {
      requireModelReader(principal);
      return listModels(deps, request);
    },
    getModel: (request, { principal }) => {
      requireModelReader(principal);
      return getModel(deps, request.id);
    },
    createModel: (request, { principal }) => {
      requireModelPermission(principal, 'create');
      return createModel(deps, request.fields);
    },
    updateModel: (request, { principal }) => {
      requireModelPermission(principal, 'update');
      return changeModel(deps, request.id, request.fields);
    },
    deleteModel: (request, { principal }) => {
      requireModelPermission(principal, 'delete');
      return removeModel(deps, request.id);
    },
    testModel: (request, { principal }) => {
      requireModelPermission(principal, 'create');
      return testModel(deps, request);
    },
    discoverModels: (request, { principal }) => {
      requireModelPermission(principal, 'create');
      return discoverModels(deps, request);
    },
    resolveModelEndpoint: (request) => resolveModelEndpoint(deps, request),
  });
  return internalOnly(service, MODELS_INTERNAL_CALLERS);
}
