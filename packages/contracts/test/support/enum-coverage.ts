import { expect } from 'vitest';
import type { ClosedSet } from '../../src/closed-set.js';

/** A closed set and the generated proto enum it must name, for `it.each`. */
export type EnumTable = [string, ClosedSet<string, number>, Record<string, string | number>];

/** The values a proto enum defines, less "unspecified" (0) and ts-proto's UNRECOGNIZED (-1). */
function definedValues(protoEnum: Record<string, string | number>): number[] {
  return Object.values(protoEnum).filter((value): value is number => typeof value === 'number' && value > 0);
}

/** Every value of the enum has exactly one name in the set, and the name translates back to it. */
export function expectNamesEveryValue(
  set: ClosedSet<string, number>,
  protoEnum: Record<string, string | number>,
) {
  const values = definedValues(protoEnum);
  expect(set.names).toHaveLength(values.length);
  for (const value of values) {
    const name = set.fromProto(value);
    expect(name, `enum value ${value}`).toBeDefined();
    expect(set.toProto(name!)).toBe(value);
  }
}
