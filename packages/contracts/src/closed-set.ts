/**
 * A closed set of the API (a model type, a channel, a scope…): the names JSON carries and the
 * proto enum that carries the same set over gRPC. The pairs are the one source: the gateway's
 * request schemas use `names` (`z.enum(MODEL_TYPES.names)`, so the OpenAPI document lists them),
 * handlers translate with `toProto`/`fromProto`, and a value outside the set never reaches a use case.
 *
 * Proto3 enums start with `<ENUM>_UNSPECIFIED = 0`, which means "not given": `fromProto` answers
 * `undefined` for it (and for a number this build does not know, e.g. from a newer peer), so the
 * caller decides whether absence is an error or a default.
 */
export interface ClosedSet<Name extends string, Value extends number> {
  readonly names: readonly [Name, ...Name[]];
  has(candidate: unknown): candidate is Name;
  toProto(name: Name): Value;
  fromProto(value: Value | number): Name | undefined;
}

/** The names of a closed set as a type: `NameOf<typeof MONITOR_STATUSES>`. */
export type NameOf<Set extends ClosedSet<string, number>> = Set['names'][number];

export function closedSet<Name extends string, Value extends number>(
  pairs: readonly [readonly [Name, Value], ...(readonly [Name, Value])[]],
): ClosedSet<Name, Value> {
  const byName = new Map<string, Value>();
  const byValue = new Map<number, Name>();
  for (const [name, value] of pairs) {
    if (value === 0)
      throw new Error(`closed set: ${name} maps to 0, which proto3 reserves for "unspecified"`);
    if (byName.has(name) || byValue.has(value))
      throw new Error(`closed set: ${name} / ${value} listed twice`);
    byName.set(name, value);
    byValue.set(value, name);
  }
  const names = pairs.map(([name]) => name) as unknown as readonly [Name, ...Name[]];
  return {
    names,
    has: (candidate): candidate is Name => typeof candidate === 'string' && byName.has(candidate),
    toProto: (name) => {
      const value = byName.get(name);
      if (value === undefined)
        throw new Error(`closed set: ${String(name)} is not one of ${names.join(', ')}`);
      return value;
    },
    fromProto: (value) => byValue.get(value),
  };
}
