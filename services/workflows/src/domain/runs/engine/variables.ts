import { ByteMeter, jsonBytes } from './limits.js';

/**
 * `{{path}}` templates over a run's variables (docs/workflows.md "Variables"): `inputs.<name>` and
 * `<node_id>.<output>[.<nested>…]`. A path whose value is missing (a node on a skipped branch, an
 * absent optional input, an output field the node did not produce) renders as the empty string;
 * a path whose root is neither `inputs` nor a node of the definition is refused before the run
 * starts (`templateRootErrors`), so typos never reach run time.
 */

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value at `path` (dot separated). A node id may itself contain dots, so the root is the
 * longest dotted prefix that names a variable.
 */
export function lookup(variables: Record<string, unknown>, path: string): unknown {
  const parts = path.split('.');
  for (let rootLength = parts.length; rootLength >= 1; rootLength -= 1) {
    const root = parts.slice(0, rootLength).join('.');
    if (!Object.hasOwn(variables, root)) continue;
    let value: unknown = variables[root];
    for (const part of parts.slice(rootLength)) {
      if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
      else if (isRecord(value) && Object.hasOwn(value, part)) value = value[part];
      else return undefined;
    }
    return value;
  }
  return undefined;
}

/** A value as text: strings as is, objects and arrays as JSON, null/undefined as ''. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

/**
 * Bounds on what rendering may build (docs/security.md "Workflow runs"): each rendered text at
 * most `maxValueBytes` UTF-8 bytes, checked piece by piece so an oversize text is never built;
 * `meter` also counts every rendered leaf (texts and whole `{{path}}` values) of one node.
 */
export interface RenderLimits {
  maxValueBytes: number;
  meter?: ByteMeter;
}

/** Every `{{…}}` replaced by its value as text; `OutputTooLargeError` past the limits. */
export function renderText(
  template: string,
  variables: Record<string, unknown>,
  limits?: RenderLimits,
): string {
  if (!limits)
    return template.replace(PLACEHOLDER, (_match, path: string) => asText(lookup(variables, path)));
  const value = new ByteMeter('value', limits.maxValueBytes);
  const pieces: string[] = [];
  const keep = (piece: string) => {
    const bytes = Buffer.byteLength(piece, 'utf8');
    value.charge(bytes);
    limits.meter?.charge(bytes);
    pieces.push(piece);
  };
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    keep(template.slice(last, match.index));
    keep(asText(lookup(variables, match[1] ?? '')));
    last = match.index + match[0].length;
  }
  keep(template.slice(last));
  return pieces.join('');
}

/**
 * A template string that is exactly one `{{path}}` keeps the value's type (an object, a number);
 * any other string is rendered as text; objects and arrays are rendered leaf by leaf.
 */
export function renderValue(
  value: unknown,
  variables: Record<string, unknown>,
  limits?: RenderLimits,
): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (!whole) return renderText(value, variables, limits);
    const found = lookup(variables, whole[1] ?? '');
    // Passed on by reference (no copy is built), but it is part of what the node holds.
    limits?.meter?.charge(jsonBytes(found));
    return found;
  }
  if (Array.isArray(value)) return value.map((item) => renderValue(item, variables, limits));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, renderValue(item, variables, limits)]),
    );
  }
  return value;
}

/** Every placeholder path in a value (strings, arrays and objects searched). */
export function templatePaths(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
  if (Array.isArray(value)) return value.flatMap(templatePaths);
  if (isRecord(value)) return Object.values(value).flatMap(templatePaths);
  return [];
}

/** Why the placeholders in `value` cannot resolve: an empty path or an unknown root. */
export function templateRootErrors(value: unknown, nodeIds: ReadonlySet<string>, field: string): string[] {
  const errors: string[] = [];
  for (const path of templatePaths(value)) {
    if (path === '') {
      errors.push(`${field}: empty variable {{}}`);
      continue;
    }
    const parts = path.split('.');
    const known = parts.some((_part, index) => {
      const root = parts.slice(0, index + 1).join('.');
      return root === 'inputs' || nodeIds.has(root);
    });
    if (!known)
      errors.push(`${field}: unknown variable {{${path}}} (use inputs.<name> or <node_id>.<output>)`);
  }
  return errors;
}
