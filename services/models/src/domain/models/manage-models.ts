import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, readPaging } from '@platform/errors';
import {
  deleteModel as deleteModelRow,
  findModelById,
  insertModel,
  clearOtherDefaults,
  listModels as listModelRows,
  lockDefaultChanges,
  updateModel,
  type ModelRow,
  type ModelValues,
} from '../../data/models-repo.js';
import type { ModelsDependencies } from '../../deps.js';
import { findProvider, supportsEmbedding } from '../catalog/providers.js';
import { modelTypeName, providerName } from '../catalog/wire-values.js';
import { assertEndpointAllowed } from '../connectivity/model-outbound.js';
import { parseCreateFields, parseUpdateFields, type CreateFields } from './model-fields.js';
import { toModel } from './model-views.js';

export type ManageModelsDeps = Pick<ModelsDependencies, 'pool' | 'secrets' | 'allowlist' | 'resolve'>;

/** `GET /admin/models`: `sort_order`, then name; filters provider, model_type, is_enabled. */
export async function listModels(
  deps: ManageModelsDeps,
  request: modelsV1.ListModelsRequest,
): Promise<modelsV1.ListModelsResponse> {
  const page = readPaging(request.page, request.page_size);
  const filters = {
    provider: request.provider === undefined ? undefined : providerName(request.provider),
    model_type: request.model_type === undefined ? undefined : modelTypeName(request.model_type),
    is_enabled: request.is_enabled,
  };
  const { rows, total } = await listModelRows(deps.pool, filters, page);
  return { items: rows.map(toModel), total, page: page.page, page_size: page.pageSize };
}

export async function getModel(deps: ManageModelsDeps, id: string): Promise<modelsV1.Model> {
  const row = await findModelById(deps.pool, id);
  if (!row) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  return toModel(row);
}

/**
 * The rules across fields: `decision` only with the decision provider, embeddings only with a
 * provider on the supported list, a base URL only inside the endpoint allowlist.
 */
async function checkCombination(deps: ManageModelsDeps, values: ModelValues, baseUrlChanged: boolean) {
  const provider = findProvider(values.provider);
  if (values.model_type === 'decision' && !provider?.is_decision_provider) {
    throw BusinessError.named('model_type_not_supported', {
      data: { provider: values.provider, model_type: values.model_type },
    });
  }
  if (values.model_type === 'embedding' && !(provider && supportsEmbedding(provider))) {
    throw BusinessError.named('embedding_provider_not_supported', { data: { provider: values.provider } });
  }
  if (values.base_url !== null && baseUrlChanged) await assertEndpointAllowed(deps, values.base_url);
}

/** The sealed key to store: a new non-empty key sealed, "" cleared, null/absent kept. */
function sealedKey(deps: ManageModelsDeps, apiKey: string | null | undefined, current: string | null) {
  if (apiKey === undefined || apiKey === null) return current;
  return apiKey === '' ? null : deps.secrets.encrypt(apiKey);
}

function valuesOf(fields: Omit<CreateFields, 'api_key'>, sealed: string | null): ModelValues {
  return {
    name: fields.name,
    provider: fields.provider,
    model_id: fields.model_id,
    model_type: fields.model_type,
    provider_display_name: fields.provider_display_name,
    base_url: fields.base_url,
    api_key_sealed: sealed,
    context_length: fields.context_length,
    max_output_tokens: fields.max_output_tokens,
    input_price: fields.input_price === null ? null : String(fields.input_price),
    output_price: fields.output_price === null ? null : String(fields.output_price),
    default_params: fields.default_params,
    capabilities: fields.capabilities,
    is_enabled: fields.is_enabled,
    is_default: fields.is_default,
    sort_order: fields.sort_order,
  };
}

export async function createModel(deps: ManageModelsDeps, input: unknown): Promise<modelsV1.Model> {
  const fields = parseCreateFields(input);
  const values = valuesOf(fields, sealedKey(deps, fields.api_key, null));
  await checkCombination(deps, values, true);
  const row = await withTransaction(deps.pool, async (tx) => {
    if (values.is_default) {
      await lockDefaultChanges(tx);
      await clearOtherDefaults(tx, values.model_type, null);
    }
    return insertModel(tx, values);
  });
  return toModel(row);
}

/** `PUT /admin/models/{id}`: partial; the merged model is checked as a whole. */
export async function changeModel(
  deps: ManageModelsDeps,
  id: string,
  input: unknown,
): Promise<modelsV1.Model> {
  const fields = parseUpdateFields(input);
  const current = await findModelById(deps.pool, id);
  if (!current) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  // Checked before the transaction: no remote call (identity's allowlist) holds a connection open.
  const merged = merge(current, fields, sealedKey(deps, fields.api_key, current.api_key_sealed));
  await checkCombination(deps, merged, fields.base_url !== undefined && fields.base_url !== current.base_url);
  // A change that can make this model the default of a type (is_default set, or a default moving
  // to another type) takes the default lock before the row lock.
  const movesDefault = fields.is_default === true || fields.model_type !== undefined;
  const row = await withTransaction(deps.pool, async (tx) => {
    if (movesDefault) await lockDefaultChanges(tx);
    const locked = await findModelById(tx, id, { forUpdate: true });
    if (!locked) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
    const values = merge(locked, fields, sealedKey(deps, fields.api_key, locked.api_key_sealed));
    if (movesDefault && values.is_default) await clearOtherDefaults(tx, values.model_type, id);
    return updateModel(tx, id, values);
  });
  return toModel(row);
}

function merge(
  row: ModelRow,
  fields: ReturnType<typeof parseUpdateFields>,
  sealed: string | null,
): ModelValues {
  const { api_key: _ignored, ...changes } = fields;
  const price = (value: number | null | undefined, stored: string | null) =>
    value === undefined ? stored : value === null ? null : String(value);
  return {
    ...row,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    input_price: price(fields.input_price, row.input_price),
    output_price: price(fields.output_price, row.output_price),
    api_key_sealed: sealed,
  } as ModelValues;
}

export async function removeModel(deps: ManageModelsDeps, id: string): Promise<modelsV1.DeleteModelResponse> {
  if (!(await deleteModelRow(deps.pool, id))) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  return { id };
}
