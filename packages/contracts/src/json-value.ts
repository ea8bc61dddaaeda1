import type { JsonArray, JsonObject, JsonValue } from './gen/platform/common/v1/json_value.js';

/**
 * JSON levels carried as typed messages; deeper subtrees travel as JSON text (`deep_json`).
 * Each level costs two nested messages (a value and its object or array) and the generated
 * decoders refuse nesting past 100, so 40 levels leave room for the messages around the value.
 */
const TYPED_LEVELS = 40;

/**
 * A JSON value (what JSON.parse returns) as a platform.common.v1.JsonValue. Object members keep
 * their order and every key, `__proto__` included; `undefined` members are left out, as
 * JSON.stringify leaves them out.
 */
export function toJsonValue(value: unknown, level = 0): JsonValue {
  if (value === null) return { null_value: true };
  switch (typeof value) {
    case 'number':
      return { number_value: value };
    case 'string':
      return { string_value: value };
    case 'boolean':
      return { bool_value: value };
    case 'object':
      if (level >= TYPED_LEVELS) return { deep_json: JSON.stringify(value) };
      return Array.isArray(value)
        ? { array_value: { items: value.map((item: unknown) => toJsonValue(item ?? null, level + 1)) } }
        : { object_value: toJsonObject(value as Record<string, unknown>, level + 1) };
    default:
      throw new TypeError(`toJsonValue: a ${typeof value} is not a JSON value`);
  }
}

function toJsonObject(object: Record<string, unknown>, level: number): JsonObject {
  const keys: string[] = [];
  const values: JsonValue[] = [];
  for (const [key, member] of Object.entries(object)) {
    if (member === undefined) continue;
    keys.push(key);
    values.push(toJsonValue(member, level));
  }
  return { keys, values };
}

/** A message's value as JSON.parse would have returned it; an unset message is `undefined`. */
export function fromJsonValue(message: JsonValue | undefined): unknown {
  if (!message) return undefined;
  if (message.null_value !== undefined) return null;
  if (message.number_value !== undefined) return message.number_value;
  if (message.string_value !== undefined) return message.string_value;
  if (message.bool_value !== undefined) return message.bool_value;
  if (message.object_value !== undefined) return fromJsonObject(message.object_value);
  if (message.array_value !== undefined) return fromJsonArray(message.array_value);
  if (message.deep_json !== undefined) return JSON.parse(message.deep_json) as unknown;
  return undefined;
}

function fromJsonObject(object: JsonObject): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  object.keys.forEach((key, index) => {
    // defineProperty, not assignment: `result['__proto__'] = …` would replace the prototype
    // instead of adding the member (JSON.parse adds it as an own member).
    Object.defineProperty(result, key, {
      value: fromJsonValue(object.values[index]) ?? null,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  return result;
}

const fromJsonArray = (array: JsonArray): unknown[] => array.items.map((item) => fromJsonValue(item) ?? null);

/** `toJsonValue` for an optional field: `undefined` stays unset. */
export const toOptionalJsonValue = (value: unknown): JsonValue | undefined =>
  value === undefined ? undefined : toJsonValue(value);
