import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import { findModelById } from '../../data/models-repo.js';
import type { ModelsDependencies } from '../../deps.js';
import { resolveBaseUrl } from '../catalog/endpoints.js';
import { modelTypeValue, providerValue } from '../catalog/wire-values.js';
import { assertEndpointAllowed } from './model-outbound.js';

export type ResolveEndpointDeps = Pick<ModelsDependencies, 'pool' | 'secrets' | 'allowlist'>;

/**
 * Where a workflow llm node calls a model (docs/models.md "For workflows"): the base URL resolved
 * as for the connectivity test, the decrypted key and the upstream's model name. The same
 * allowlist rule as every model call applies here (the caller sends through the outbound guard
 * with `model_endpoint_allowlist` again, at connect time).
 */
export async function resolveModelEndpoint(
  deps: ResolveEndpointDeps,
  request: modelsV1.ResolveModelEndpointRequest,
): Promise<modelsV1.ModelEndpoint> {
  if (!isUuid(request.model_id)) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  const model = await findModelById(deps.pool, request.model_id);
  if (!model) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  if (!model.is_enabled) throw new BusinessError(ErrorCode.MODEL_DISABLED);
  const baseUrl = resolveBaseUrl(model);
  if (!baseUrl) {
    throw BusinessError.named('model_endpoint_not_allowed', {
      data: { reason: 'no_endpoint', detail: `provider ${model.provider} has no default endpoint` },
    });
  }
  await assertEndpointAllowed(deps, baseUrl);
  let apiKey = '';
  if (model.api_key_sealed !== null) {
    try {
      apiKey = deps.secrets.decrypt(model.api_key_sealed);
    } catch (error) {
      throw new BusinessError(ErrorCode.INTERNAL_ERROR, { cause: error });
    }
  }
  return {
    base_url: baseUrl,
    api_key: apiKey,
    upstream_model: model.model_id,
    provider: providerValue(model.provider),
    model_type: modelTypeValue(model.model_type),
  };
}
