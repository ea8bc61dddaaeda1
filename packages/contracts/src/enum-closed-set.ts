import { closedSet, type ClosedSet } from './closed-set.js';

/** The JSON names of a proto enum's members: `RUN_MODE_DEBUG` → `debug` (prefix `RUN_MODE_`). */
export type EnumNames<Enum, Prefix extends string> = {
  [Key in keyof Enum]: Key extends `${Prefix}UNSPECIFIED`
    ? never
    : Key extends `${Prefix}${infer Rest}`
      ? Lowercase<Rest>
      : never;
}[keyof Enum];

/**
 * The closed set of a proto enum whose JSON names are its member names without the prefix, in
 * lower case (`RUN_TRIGGER_TYPE_API_KEY` → `api_key`): the proto is then the one table, and a
 * member added there is a name here. UNSPECIFIED and ts-proto's UNRECOGNIZED are not members.
 */
export function closedSetOfEnum<Enum extends Record<string, string | number>, Prefix extends string>(
  enumeration: Enum,
  prefix: Prefix,
): ClosedSet<EnumNames<Enum, Prefix>, number> {
  const pairs = Object.entries(enumeration)
    .filter(
      (entry): entry is [string, number] =>
        typeof entry[1] === 'number' && entry[1] > 0 && entry[0].startsWith(prefix),
    )
    .map(
      ([key, value]) => [key.slice(prefix.length).toLowerCase() as EnumNames<Enum, Prefix>, value] as const,
    );
  if (pairs.length === 0) throw new Error(`closed set: no member of the enum starts with ${prefix}`);
  return closedSet(pairs as [(typeof pairs)[number], ...(typeof pairs)[number][]]);
}
