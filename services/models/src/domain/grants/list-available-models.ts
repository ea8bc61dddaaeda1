import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { isUuid, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { listAvailableModels } from '../../data/available-models-repository.js';
import { modelTypeName, modelTypeValue, providerValue } from '../catalog/wire-values.js';
import type { GrantsDeps } from './grants-deps.js';

/**
 * `GET /models`: what a builder may pick — enabled models with an enabled grant to one of the
 * caller's teams (the principal's team ids, current as of the gateway's principal cache). Never
 * endpoints, keys or prices.
 */
export async function listModelsForBuilder(
  deps: GrantsDeps,
  principal: Principal,
  request: grantsV1.ListAvailableModelsRequest,
): Promise<grantsV1.ListAvailableModelsResponse> {
  const page = readPaging(request.page, request.page_size);
  // Unspecified = every type.
  const modelType = request.model_type ? modelTypeName(request.model_type) : null;
  const teamIds = principal.team_ids.filter(isUuid);
  if (teamIds.length === 0) return { items: [], total: 0, page: page.page, page_size: page.pageSize };
  const { rows, total } = await listAvailableModels(deps.pool, { teamIds, modelType }, page);
  return {
    items: rows.map((row) => ({
      id: row.id,
      name: row.name,
      provider: providerValue(row.provider),
      provider_display_name: row.provider_display_name ?? '',
      model_type: modelTypeValue(row.model_type),
      capabilities: row.capabilities ?? undefined,
      context_length: row.context_length ?? 0,
      is_default: row.is_default,
    })),
    total,
    page: page.page,
    page_size: page.pageSize,
  };
}
