import {
  decimalPlaces,
  isHttpUrl,
  MODEL_FIELD_RULES,
  MODEL_PROVIDERS,
  MODEL_TYPES,
} from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import { z } from 'zod';

export { decimalPlaces } from '@platform/contracts';
const RULES = MODEL_FIELD_RULES;
const INT32_MAX = RULES.int32Max;

const price = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal number')
      .transform(Number),
  ])
  .pipe(
    z
      .number()
      .min(0, 'must not be negative')
      .max(RULES.maxPrice)
      .refine((value) => decimalPlaces(value) <= RULES.priceDecimals, 'at most 6 decimal places'),
  )
  .nullable();

const jsonObject = z.record(z.string(), z.unknown()).nullable();
const positiveInt = z.number().int().min(1).max(INT32_MAX).nullable();
const noNul = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL');

/**
 * Every writable field and its rule (spec "Model definition"); shared by create and update. The
 * gateway checks the same rules (packages/contracts) first; these guard callers that skip it.
 */
export const MODEL_FIELD_SHAPE = {
  name: noNul(RULES.nameMaxLength, 1),
  provider: z.enum(MODEL_PROVIDERS.names),
  model_id: noNul(RULES.modelIdMaxLength, 1),
  model_type: z.enum(MODEL_TYPES.names),
  provider_display_name: noNul(RULES.displayNameMaxLength).nullable(),
  base_url: noNul(RULES.baseUrlMaxLength).refine(isHttpUrl, 'must be an http(s) URL').nullable(),
  // Empty is fine for local providers; null on update keeps the stored key, "" clears it.
  api_key: noNul(RULES.apiKeyMaxLength).nullable(),
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

const createSchema = z
  .object({
    ...MODEL_FIELD_SHAPE,
    provider_display_name: MODEL_FIELD_SHAPE.provider_display_name.default(null),
    base_url: MODEL_FIELD_SHAPE.base_url.default(null),
    api_key: MODEL_FIELD_SHAPE.api_key.default(null),
    context_length: positiveInt.default(null),
    max_output_tokens: positiveInt.default(null),
    input_price: price.default(null),
    output_price: price.default(null),
    default_params: jsonObject.default(null),
    capabilities: jsonObject.default(null),
    is_enabled: z.boolean().default(true),
    is_default: z.boolean().default(false),
    sort_order: MODEL_FIELD_SHAPE.sort_order.default(0),
  })
  .strict();
const updateSchema = z.object(MODEL_FIELD_SHAPE).partial().strict();

export type CreateFields = z.infer<typeof createSchema>;
export type UpdateFields = z.infer<typeof updateSchema>;

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    (errors[field] ??= []).push(issue.message);
  }
  throw BusinessError.validation(errors, { httpStatus: 400 });
}

/** The create body, defaults filled in; 1001 with `data.errors` per field otherwise. */
export const parseCreateFields = (input: unknown): CreateFields => parse(createSchema, input);

/** The update body: only the fields present change. */
export const parseUpdateFields = (input: unknown): UpdateFields => parse(updateSchema, input);

/** Postgres numeric text → the shortest decimal that states it ("0.150000" → 0.15). */
export function priceOut(value: string | null): number | null {
  return value === null ? null : Number(value);
}
