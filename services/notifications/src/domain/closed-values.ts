import type { ClosedSet } from '@platform/contracts';

/**
 * A closed-set value from a gRPC caller as its name: '' when unspecified (or a value this build does
 * not know), so the use case applies its default or refuses, as it does for any missing field.
 */
export const nameIn = <Name extends string>(set: ClosedSet<Name, number>, value: number): Name | '' =>
  set.fromProto(value) ?? '';

/**
 * A stored name as its proto value. Documents were checked against the same sets when written, so
 * a name outside them is a broken record: UNSPECIFIED (0), never a throw that would hide a page.
 */
export const valueIn = <Value extends number>(set: ClosedSet<string, Value>, name: string): Value | 0 =>
  set.has(name) ? set.toProto(name) : 0;
