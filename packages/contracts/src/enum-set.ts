import { closedSet, type ClosedSet } from './closed-set.js';

/** A member's JSON name: its key without the enum's prefix, in lower case (`MODEL_TYPE_TTS` → `tts`). */
type MemberName<Key, Prefix extends string> = Key extends `${Prefix}${infer Rest}`
  ? Rest extends 'UNSPECIFIED'
    ? never
    : Lowercase<Rest>
  : never;

export type EnumNames<E, Prefix extends string> = MemberName<keyof E, Prefix>;
type EnumValue<E> = Extract<E[keyof E], number>;

/**
 * The closed set of a generated proto enum, read off the enum itself: the proto style names each
 * member `<PREFIX><NAME>`, and `<name>` in lower case is what JSON carries, so the enum is the one
 * source of both and no table of pairs can drift from it. UNSPECIFIED (0) and ts-proto's
 * UNRECOGNIZED (-1) are left out; names keep the enum's order (the order z.enum and the OpenAPI
 * document list them in). `except` leaves members out, for a route that takes part of a set.
 */
export function enumSet<
  E extends Record<string, string | number>,
  Prefix extends string,
  Left extends EnumNames<E, Prefix> = never,
>(
  enumObject: E,
  prefix: Prefix,
  except: readonly Left[] = [],
): ClosedSet<Exclude<EnumNames<E, Prefix>, Left>, EnumValue<E>> {
  const pairs = Object.entries(enumObject)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0)
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, value]) => [key.slice(prefix.length).toLowerCase(), value] as const)
    .filter(([name]) => !(except as readonly string[]).includes(name));
  if (pairs.length === 0) throw new Error(`enum set: no member of ${prefix}* is left`);
  return closedSet(
    pairs as unknown as Parameters<typeof closedSet<Exclude<EnumNames<E, Prefix>, Left>, EnumValue<E>>>[0],
  );
}
