import type { z } from 'zod';

/**
 * A partial update that must name at least one of its fields: the refinement refuses an empty body
 * (422 / 1001 with `message`), and the same field list goes into the OpenAPI document as an
 * `anyOf` of `required`, so a body valid by the document is one the edge accepts.
 */
export function atLeastOneField<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, message: string) {
  return schema
    .refine((body) => Object.values(body).some((value) => value !== undefined), { message })
    .meta({ anyOf: Object.keys(schema.shape).map((field) => ({ required: [field] })) });
}
