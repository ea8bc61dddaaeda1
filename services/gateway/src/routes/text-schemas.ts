import { z } from 'zod';
import { documentedText } from './validation.js';

/**
 * A request string of `min`..`max` characters whose document states the edge's NUL rule
 * (validation.ts: a NUL anywhere in a request is refused before a route schema runs, 422 / 1001).
 */
export function text(max: number, min = 0) {
  return documentedText(z.string().min(min).max(max));
}
