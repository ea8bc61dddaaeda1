import { MODEL_PROVIDERS, MODEL_TYPES as MODEL_TYPE_SET } from '@platform/contracts';
import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { MODEL_TYPE_NAMES, MODEL_TYPES, PROVIDERS, supportsEmbedding } from './providers.js';

/** `GET /models/providers`: the catalog as clients see it. */
export function listProviders(): modelsV1.ListProvidersResponse {
  return {
    items: PROVIDERS.map((provider) => ({
      id: MODEL_PROVIDERS.toProto(provider.id),
      name: provider.name,
      model_types: provider.model_types.map(MODEL_TYPE_SET.toProto),
      default_base_url: provider.default_base_url ?? undefined,
      type_base_urls: { ...provider.type_base_urls },
      supports_embedding: supportsEmbedding(provider),
      is_decision_provider: provider.is_decision_provider === true,
    })),
  };
}

/** `GET /models/types`: the 9 model types. */
export function listModelTypes(): modelsV1.ListModelTypesResponse {
  return { items: MODEL_TYPES.map((id) => ({ id: MODEL_TYPE_SET.toProto(id), name: MODEL_TYPE_NAMES[id] })) };
}
