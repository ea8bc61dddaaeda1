/**
 * The edge's text rule (routes/validation.ts `collectUnsafeText`: no NUL anywhere in a request
 * part, 422 / 1001) stated in the OpenAPI document, so a schema-valid request is one the gateway
 * accepts: every free-text string gets a pattern without NUL, every object that accepts keys it
 * does not name says those keys and their values carry none either, and so does a value the
 * route takes as any JSON (a model's `default_params`, a run's inputs), at every depth. Lone
 * surrogates need no pattern: JSON text generated from a schema never holds one.
 */

import { NO_NUL_PATTERN } from '../routes/validation.js';

type JsonSchema = Record<string, unknown>;

const NO_NUL_CLASS = '[^\\u0000]';
/** Any text without NUL (the one pattern, routes/validation.ts). */
export const SAFE_TEXT_PATTERN = NO_NUL_PATTERN;

const safeString: JsonSchema = { type: 'string', pattern: SAFE_TEXT_PATTERN };
const scalar: JsonSchema = { type: ['null', 'boolean', 'number'] };
/**
 * A value under a key the route does not name (ignored, but still checked for NUL), or one it
 * takes as any JSON. Two levels deep: a subset of what is accepted (deeper values without NUL are
 * accepted too), since the fuzzer's JSON strategies need no more.
 */
const safeLeaf: JsonSchema = { anyOf: [scalar, safeString] };
const safeExtraValue: JsonSchema = {
  anyOf: [
    scalar,
    safeString,
    { type: 'array', items: safeLeaf },
    {
      type: 'object',
      propertyNames: { pattern: SAFE_TEXT_PATTERN },
      additionalProperties: safeLeaf,
    },
  ],
};

/**
 * Above this, an upper bound stays only in `maxLength`: a regex repeat that large makes generators
 * slow (Schemathesis' "data generation is too slow" health check), and short strings are the norm.
 */
const LARGEST_BOUND_IN_PATTERN = 1000;

/** The pattern of a string node: with its length bounds inside, so generators need no filter. */
function textPattern(node: JsonSchema): string {
  const min = typeof node.minLength === 'number' ? node.minLength : 0;
  const max =
    typeof node.maxLength === 'number' && node.maxLength <= LARGEST_BOUND_IN_PATTERN
      ? String(node.maxLength)
      : '';
  return min === 0 && max === '' ? SAFE_TEXT_PATTERN : `^${NO_NUL_CLASS}{${min},${max}}$`;
}

function isType(node: JsonSchema, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

/** Free text: a string that no format, enum, constant or pattern already confines. */
function isFreeText(node: JsonSchema): boolean {
  return (
    isType(node, 'string') &&
    node.format === undefined &&
    node.enum === undefined &&
    node.const === undefined &&
    node.pattern === undefined
  );
}

/** Keywords whose value is a map of name → schema: the map itself is no schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data (an example, a default), never a schema. */
const DATA_KEYWORDS = new Set(['default', 'examples', 'example', 'const', 'enum', 'required']);
/** Keywords that only annotate: a node of nothing else accepts any JSON value. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  'examples',
]);

/** `{}` (with annotations at most): zod's `unknown` / `any`, whatever JSON the route accepts. */
function acceptsAnyValue(node: JsonSchema): boolean {
  return Object.keys(node).every((key) => ANNOTATIONS.has(key));
}

function visitChild(key: string, child: unknown): unknown {
  if (DATA_KEYWORDS.has(key)) return child;
  if (SCHEMA_MAPS.has(key) && typeof child === 'object' && child !== null && !Array.isArray(child)) {
    return Object.fromEntries(Object.entries(child).map(([name, schema]) => [name, visit(schema)]));
  }
  return Array.isArray(child) ? child.map(visit) : visit(child);
}

function visit(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const node: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) node[key] = visitChild(key, child);
  if (acceptsAnyValue(node)) return { ...node, ...safeExtraValue };
  if (isFreeText(node)) node.pattern = textPattern(node);
  if (isType(node, 'object') && node.additionalProperties === undefined) {
    node.propertyNames = { pattern: SAFE_TEXT_PATTERN };
    node.additionalProperties = safeExtraValue;
  }
  return node;
}

/** The request schema with the text rule stated (a copy; `properties` keys are names, not schemas). */
export function withSafeText(schema: JsonSchema): JsonSchema {
  return visit(schema) as JsonSchema;
}
