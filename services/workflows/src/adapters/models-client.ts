import { MODEL_PROVIDERS, MODEL_TYPES } from '@platform/contracts';
import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { createServiceClient, type CallCredentials } from '@platform/grpc';
import type { ModelGateway } from '../domain/runs/nodes/node-ports.js';

/**
 * The models service for llm nodes: ModelQuotaService (AuthorizeModelUse, RecordModelUsage) and
 * ModelsService.ResolveModelEndpoint, all internal-only with workflows among their callers.
 * `credentials`: workflows' service token for models.
 */
export function modelsGateway(
  address: string,
  credentials: CallCredentials,
): ModelGateway & { close(): void } {
  const options = { defaultTimeoutMs: 10_000, credentials };
  const quota = createServiceClient(
    grantsV1.ModelQuotaServiceService,
    'platform.models.v1.ModelQuotaService',
    address,
    options,
  );
  const models = createServiceClient(
    modelsV1.ModelsServiceService,
    'platform.models.v1.ModelsService',
    address,
    options,
  );
  return {
    async authorizeUse(teamId, modelId) {
      await quota.call('authorizeModelUse', { team_id: teamId, model_id: modelId });
    },
    async resolveEndpoint(modelId) {
      const endpoint = await models.call('resolveModelEndpoint', { model_id: modelId });
      return {
        baseUrl: endpoint.base_url,
        apiKey: endpoint.api_key === '' ? null : endpoint.api_key,
        upstreamModel: endpoint.upstream_model,
        // Names, as the engine keys its adapters; one this build does not know finds no adapter.
        provider: MODEL_PROVIDERS.fromProto(endpoint.provider) ?? '',
        modelType: MODEL_TYPES.fromProto(endpoint.model_type) ?? '',
      };
    },
    async recordUsage({ teamId, modelId, tokens, requests, idempotencyKey }) {
      const result = await quota.call('recordModelUsage', {
        team_id: teamId,
        model_id: modelId,
        tokens,
        requests,
        idempotency_key: idempotencyKey,
      });
      return { duplicate: result.duplicate };
    },
    close() {
      quota.close();
      models.close();
    },
  };
}
