import { describe, expect, it } from 'vitest';
import { closedSet } from '../src/closed-set.js';

enum Colour {
  COLOUR_UNSPECIFIED = 0,
  COLOUR_RED = 1,
  COLOUR_DARK_BLUE = 2,
}

describe('closedSet', () => {
  const colours = closedSet([
    ['red', Colour.COLOUR_RED],
    ['dark-blue', Colour.COLOUR_DARK_BLUE],
  ] as const);

  it('lists the names in the order given, for z.enum and the OpenAPI document', () => {
    expect(colours.names).toEqual(['red', 'dark-blue']);
  });

  it('translates both ways', () => {
    expect(colours.toProto('dark-blue')).toBe(Colour.COLOUR_DARK_BLUE);
    expect(colours.fromProto(Colour.COLOUR_RED)).toBe('red');
  });

  it('answers undefined for unspecified and for a number it does not know', () => {
    expect(colours.fromProto(Colour.COLOUR_UNSPECIFIED)).toBeUndefined();
    expect(colours.fromProto(99)).toBeUndefined();
  });

  it('knows its members and nothing else', () => {
    expect(colours.has('red')).toBe(true);
    expect(colours.has('green')).toBe(false);
    expect(colours.has(1)).toBe(false);
    expect(() => colours.toProto('green' as 'red')).toThrow(/not one of red, dark-blue/);
  });

  it('refuses a table that maps to 0 or lists a value twice', () => {
    expect(() => closedSet([['red', 0]] as const)).toThrow(/unspecified/);
    expect(() =>
      closedSet([
        ['red', 1],
        ['blue', 1],
      ] as const),
    ).toThrow(/twice/);
  });
});
