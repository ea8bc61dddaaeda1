import { describe, expect, expectTypeOf, it } from 'vitest';
import { enumSet } from '../src/enum-set.js';

// As ts-proto generates a proto3 enum: UNSPECIFIED first, UNRECOGNIZED for unknown numbers.
enum Shade {
  SHADE_UNSPECIFIED = 0,
  SHADE_LIGHT_GREY = 1,
  SHADE_7D = 2,
  SHADE_DARK = 3,
  UNRECOGNIZED = -1,
}

describe('enumSet', () => {
  it('names each member by its key without the prefix, in lower case, in the enum order', () => {
    const shades = enumSet(Shade, 'SHADE_');
    expect(shades.names).toEqual(['light_grey', '7d', 'dark']);
    expectTypeOf(shades.names[0]).toEqualTypeOf<'light_grey' | '7d' | 'dark'>();
  });

  it('translates both ways; UNSPECIFIED, UNRECOGNIZED and unknown numbers are no name', () => {
    const shades = enumSet(Shade, 'SHADE_');
    expect(shades.toProto('7d')).toBe(Shade.SHADE_7D);
    expect(shades.fromProto(Shade.SHADE_LIGHT_GREY)).toBe('light_grey');
    expect([0, -1, 9].map((value) => shades.fromProto(value))).toEqual([undefined, undefined, undefined]);
    expect(shades.has('unspecified')).toBe(false);
    expect(shades.has('unrecognized')).toBe(false);
  });

  it('leaves out the members named in except, keeping their values for the others', () => {
    const some = enumSet(Shade, 'SHADE_', ['dark']);
    expect(some.names).toEqual(['light_grey', '7d']);
    expect(some.fromProto(Shade.SHADE_DARK)).toBeUndefined();
    expect(some.toProto('7d')).toBe(2);
  });

  it('refuses a prefix that leaves nothing', () => {
    expect(() => enumSet(Shade, 'COLOUR_')).toThrow(/no member of COLOUR_/);
  });
});
