import { describe, expect, it } from 'vitest';
import { JsonValue } from '../src/gen/platform/common/v1/json_value.js';
import { StartRunRequest } from '../src/gen/platform/workflows/v1/workflow_runs.js';
import { fromJsonValue, toJsonValue, toOptionalJsonValue } from '../src/json-value.js';

/** Through the wire and back, as a gRPC call carries it. */
const overTheWire = (value: unknown): unknown =>
  fromJsonValue(JsonValue.decode(JsonValue.encode(toJsonValue(value)).finish()));

describe('JsonValue', () => {
  it('carries what JSON.parse gives, to the same JSON text', () => {
    const text =
      '{"z":1,"a":[true,false,null,"x",{"b":-2.5e-7}],"1":{},"n":9007199254740993,"big":1e308,"e":[]}';
    const parsed = JSON.parse(text) as unknown;
    const carried = overTheWire(parsed);
    expect(carried).toEqual(parsed);
    expect(JSON.stringify(carried)).toBe(JSON.stringify(parsed));
  });

  it('keeps a `__proto__` member as a member, not as the prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"constructor":1,"k":"v"}') as object;
    const carried = overTheWire(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(carried)).toBe(Object.prototype);
    expect(Object.keys(carried)).toEqual(['__proto__', 'constructor', 'k']);
    expect(JSON.stringify(carried)).toBe(JSON.stringify(parsed));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('carries nesting deeper than the decoders allow, inside a request', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 500; level += 1) deep = level % 2 ? { next: deep } : [deep];
    const bytes = StartRunRequest.encode({
      workflow_id: 'w',
      inputs: toJsonValue({ deep }),
      wait: false,
    }).finish();
    const decoded = StartRunRequest.decode(bytes);
    expect(JSON.stringify(fromJsonValue(decoded.inputs))).toBe(JSON.stringify({ deep }));
  });

  it('leaves out undefined members and turns undefined items into null, as JSON.stringify does', () => {
    expect(overTheWire({ a: undefined, b: [undefined, 1] })).toEqual({ b: [null, 1] });
  });

  it('tells an unset field (undefined) from JSON null', () => {
    expect(fromJsonValue(undefined)).toBeUndefined();
    expect(toOptionalJsonValue(undefined)).toBeUndefined();
    expect(overTheWire(null)).toBeNull();
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => toJsonValue(() => 1)).toThrow(/not a JSON value/);
  });
});
