import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import type { ModelRow } from '../../data/models-repo.js';
import { modelTypeValue, providerValue } from '../catalog/wire-values.js';

/** A stored model as the admin API shows it: the key never, only whether one is set. */
export function toModel(row: ModelRow): modelsV1.Model {
  return {
    id: row.id,
    name: row.name,
    provider: providerValue(row.provider),
    model_id: row.model_id,
    model_type: modelTypeValue(row.model_type),
    provider_display_name: row.provider_display_name ?? undefined,
    base_url: row.base_url ?? undefined,
    api_key_set: row.api_key_sealed !== null,
    context_length: row.context_length ?? undefined,
    max_output_tokens: row.max_output_tokens ?? undefined,
    input_price: row.input_price ?? undefined,
    output_price: row.output_price ?? undefined,
    default_params: row.default_params ?? undefined,
    capabilities: row.capabilities ?? undefined,
    is_enabled: row.is_enabled,
    is_default: row.is_default,
    sort_order: row.sort_order,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
