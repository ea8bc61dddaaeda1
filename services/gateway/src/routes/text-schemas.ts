import { z } from 'zod';

/**
 * Text without NUL, as a pattern the OpenAPI document carries. The edge refuses a NUL in any
 * request string before a route schema runs (validation.ts `collectUnsafeText`, 422 / 1001), so
 * this adds no refusal of its own: it states that rule in the document, where a client or the
 * API fuzzer reads it, instead of leaving it implicit.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
export const NO_NUL = /^[^\u0000]*$/;
const NO_NUL_MESSAGE = 'must not contain NUL';

/** A request string of `min`..`max` characters, NUL-free. */
export function text(max: number, min = 0) {
  return z.string().min(min).max(max).regex(NO_NUL, NO_NUL_MESSAGE);
}
