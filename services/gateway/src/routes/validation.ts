import { BusinessError, PAGING } from '@platform/errors';
import { z } from 'zod';

/**
 * An empty `data.errors` map without a prototype: field names come from the client, and on a plain
 * `{}` a field named `constructor` would find an inherited function (a 500) and `__proto__` would
 * replace the prototype instead of naming the field.
 */
export function fieldErrors(): Record<string, string[]> {
  return Object.create(null) as Record<string, string[]>;
}

/** Zod issues → `data.errors` (field → messages), the shape the spec gives for 1001. */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix?: string,
): Record<string, string[]> {
  const errors = fieldErrors();
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    const field = [prefix, path].filter(Boolean).join('.') || prefix || '_';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Parses one part of the request; failures are collected (into a `fieldErrors()` map) so one response lists them all. */
export function parsePart<T>(
  schema: z.ZodType<T> | undefined,
  value: unknown,
  errors: Record<string, string[]>,
): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  Object.assign(errors, issuesToFieldErrors(result.error.issues));
  return undefined as T;
}

const UNSAFE_TEXT_MESSAGE = 'must be valid Unicode text without NUL characters';

/** A NUL, or a surrogate half without its pair (the `lib` target has no `isWellFormed`). */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unsafeText(text: string): boolean {
  return UNSAFE_TEXT.test(text);
}

/**
 * The NUL half of that rule as the OpenAPI document states it (the `pattern` of a documented
 * string), so a client or a generator reading the document sends text the edge accepts. Lone
 * surrogates are not stated: a pattern sees code points in one language and UTF-16 units in another.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** Also some character that is not white space (a name that trimming must leave non-empty). */
export const NOT_BLANK_NO_NUL_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** A string schema whose document states the NUL rule (validation is unchanged: the rule above applies). */
export const documentedText = <T extends z.ZodType>(schema: T, pattern = NO_NUL_PATTERN): T =>
  schema.meta({ pattern });

/** A required name: trimmed, 1..`max` characters, and the document says it may not be blank. */
export const nonBlankText = (max: number) =>
  documentedText(z.string().trim().min(1).max(max), NOT_BLANK_NO_NUL_PATTERN);

/**
 * Every string of a request part (values and object keys, at any depth) that Postgres, protobuf or
 * a header could not carry as is: a NUL character (Postgres text and jsonb refuse it) or a lone
 * surrogate (UTF-8 cannot encode it, so it would be silently replaced). Refused at the edge as one
 * class, 422 / 1001 naming the field, so no route or service has to think about it.
 */
export function collectUnsafeText(value: unknown, field: string, errors: Record<string, string[]>): void {
  if (typeof value === 'string') {
    if (unsafeText(value)) (errors[field || '_'] ??= []).push(UNSAFE_TEXT_MESSAGE);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const name = String(key);
    if (unsafeText(name)) {
      (errors[field || '_'] ??= []).push(`keys ${UNSAFE_TEXT_MESSAGE}`);
      continue;
    }
    collectUnsafeText(item, field ? `${field}.${name}` : name, errors);
  }
}

export function validationFailure(errors: Record<string, string[]>): BusinessError {
  return BusinessError.validation(errors);
}

// ---- helpers for route schemas -------------------------------------------------------------

/** A query parameter that may be repeated (`?a=x&a=y`) or given once. */
export function repeatable<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined || Array.isArray(value) ? value : [value]),
    z.array(item),
  );
}

/** Integer query parameter in [min, max]; out of range is a validation error, never clamped. */
export function queryInt(min: number, max: number, fallback: number) {
  return z.preprocess(
    (value) =>
      value === undefined || value === '' ? undefined : typeof value === 'string' ? Number(value) : value,
    z.number({ message: 'must be an integer' }).int('must be an integer').min(min).max(max).default(fallback),
  );
}

/** Boolean query parameter: `true`/`false`/`1`/`0`. */
export function queryBool(fallback: boolean) {
  return z.preprocess(
    (value) =>
      value === undefined
        ? undefined
        : value === 'true' || value === '1'
          ? true
          : value === 'false' || value === '0'
            ? false
            : value,
    z.boolean({ message: 'must be true or false' }).default(fallback),
  );
}

/** Standard paging parameters, the spec's one rule (`PAGING` in @platform/errors, which services share). */
export const pagingQuery = {
  page: queryInt(1, PAGING.maxPage, PAGING.defaultPage),
  page_size: queryInt(1, PAGING.maxPageSize, PAGING.defaultPageSize),
};
