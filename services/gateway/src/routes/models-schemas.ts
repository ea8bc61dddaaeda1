import {
  decimalPlaces,
  HTTP_URL_PATTERN,
  isHttpUrl,
  MODEL_FIELD_RULES as RULES,
  MODEL_PROVIDERS,
  MODEL_TYPES,
} from '@platform/contracts';
import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { z } from 'zod';
import { nameOf } from './closed-set-names.js';
import { text } from './text-schemas.js';

/**
 * The models routes' shapes, from the contract's closed sets and field rules (packages/contracts
 * models-sets.ts): they bound the request at the edge (422 / 1001) and describe it in OpenAPI.
 * The models service checks what only it knows (the catalog's combinations, the allowlist).
 */
const INT32_MAX = RULES.int32Max;

/**
 * A price: non-negative, at most 6 decimals. The document states the decimals rule as
 * `multipleOf: 0.000001` (metadata only: the refinement below is what runs, with its one message).
 */
const price = z
  .number()
  .min(0, 'must not be negative')
  .max(RULES.maxPrice)
  .refine((value) => decimalPlaces(value) <= RULES.priceDecimals, 'at most 6 decimal places')
  .meta({ multipleOf: 10 ** -RULES.priceDecimals })
  .nullable()
  .describe('per million tokens, non-negative, at most 6 decimals');
const positiveInt = z.number().int().min(1).max(INT32_MAX).nullable();
const jsonObject = z.record(z.string(), z.unknown()).nullable();
/** An http(s) URL with a host: `isHttpUrl` runs, the document states it as HTTP_URL_PATTERN. */
const httpUrl = z
  .string()
  .max(RULES.baseUrlMaxLength)
  .refine(isHttpUrl, 'must be an http(s) URL')
  .meta({ pattern: HTTP_URL_PATTERN });

/** One of the catalog's 23 provider ids. */
export const providerId = z.enum(MODEL_PROVIDERS.names, { message: 'unknown provider' });
const modelType = z.enum(MODEL_TYPES.names);

const fields = {
  name: text(RULES.nameMaxLength, 1),
  provider: providerId,
  model_id: text(RULES.modelIdMaxLength, 1),
  model_type: modelType,
  provider_display_name: text(RULES.displayNameMaxLength).nullable(),
  base_url: httpUrl.nullable().describe('constrained by the endpoint allowlist'),
  api_key: text(RULES.apiKeyMaxLength)
    .nullable()
    .describe('stored encrypted; on update null keeps it, "" clears it'),
  context_length: positiveInt,
  max_output_tokens: positiveInt,
  input_price: price,
  output_price: price,
  default_params: jsonObject,
  capabilities: jsonObject,
  is_enabled: z.boolean(),
  is_default: z.boolean(),
  sort_order: z.number().int().min(-INT32_MAX).max(INT32_MAX),
};

const required = ['name', 'provider', 'model_id', 'model_type'] as const;
const optionalFields = Object.fromEntries(
  Object.entries(fields)
    .filter(([name]) => !(required as readonly string[]).includes(name))
    .map(([name, schema]) => [name, schema.optional()]),
) as { [K in Exclude<keyof typeof fields, (typeof required)[number]>]: z.ZodOptional<(typeof fields)[K]> };

export const createModelBody = z
  .object({
    name: fields.name,
    provider: fields.provider,
    model_id: fields.model_id,
    model_type: fields.model_type,
    ...optionalFields,
  })
  .strict();
export const updateModelBody = z.object(fields).partial().strict();
export type ModelBody = Record<string, unknown>;

export const testModelBody = z
  .object({ api_key: text(RULES.apiKeyMaxLength).optional(), base_url: httpUrl.optional() })
  .strict();
export type TestModelBody = z.infer<typeof testModelBody>;

export const discoverBody = z
  .object({
    provider: providerId,
    base_url: httpUrl.optional(),
    api_key: text(RULES.apiKeyMaxLength).optional(),
  })
  .strict();
export type DiscoverBody = z.infer<typeof discoverBody>;

/** `true`/`false`/`1`/`0`, absent = no filter. */
const optionalBool = z.preprocess(
  (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
  z.boolean({ message: 'must be true or false' }).optional(),
);

export const modelIdParams = z.object({ model_id: z.uuid() });
export type ModelIdParams = z.infer<typeof modelIdParams>;
export const listFilters = {
  provider: providerId.optional(),
  model_type: modelType.optional(),
  is_enabled: optionalBool,
};

export const modelSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  provider: z.string(),
  model_id: z.string(),
  model_type: z.string(),
  provider_display_name: z.string().nullable(),
  base_url: z.string().nullable(),
  api_key: z.null().describe('never returned'),
  api_key_set: z.boolean(),
  context_length: z.number().int().nullable(),
  max_output_tokens: z.number().int().nullable(),
  input_price: z.number().nullable(),
  output_price: z.number().nullable(),
  default_params: jsonObject,
  capabilities: jsonObject,
  is_enabled: z.boolean(),
  is_default: z.boolean(),
  sort_order: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const providerSchema = z.object({
  id: z.string(),
  name: z.string(),
  model_types: z.array(z.string()),
  default_base_url: z.string().nullable(),
  type_base_urls: z.record(z.string(), z.string()),
  supports_embedding: z.boolean(),
  is_decision_provider: z.boolean(),
});

export const providerNameOf = nameOf(MODEL_PROVIDERS);
export const modelTypeNameOf = nameOf(MODEL_TYPES);

/** Prices travel as exact decimal text ("0.150000") and are shown as the number they state. */
export function toModel(model: modelsV1.Model) {
  return {
    id: model.id,
    name: model.name,
    provider: providerNameOf(model.provider),
    model_id: model.model_id,
    model_type: modelTypeNameOf(model.model_type),
    provider_display_name: model.provider_display_name ?? null,
    base_url: model.base_url ?? null,
    api_key: null,
    api_key_set: model.api_key_set,
    context_length: model.context_length ?? null,
    max_output_tokens: model.max_output_tokens ?? null,
    input_price: model.input_price === undefined ? null : Number(model.input_price),
    output_price: model.output_price === undefined ? null : Number(model.output_price),
    default_params: model.default_params ?? null,
    capabilities: model.capabilities ?? null,
    is_enabled: model.is_enabled,
    is_default: model.is_default,
    sort_order: model.sort_order,
    created_at: model.created_at,
    updated_at: model.updated_at,
  };
}

export function toProvider(provider: modelsV1.Provider) {
  return {
    ...provider,
    id: providerNameOf(provider.id),
    model_types: provider.model_types.map(modelTypeNameOf),
    default_base_url: provider.default_base_url ?? null,
  };
}
