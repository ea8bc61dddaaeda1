import type { ClosedSet } from '@platform/contracts';

/**
 * A presenter of one closed set: the service's enum value as its JSON name, '' for a value this
 * build does not know (UNSPECIFIED from a broken record, or a newer peer's member).
 */
export const nameOf =
  <Name extends string, Value extends number>(set: ClosedSet<Name, Value>) =>
  (value: number): Name | '' =>
    set.fromProto(value) ?? '';
