import type { ClosedSet } from '@platform/contracts';
import { BusinessError } from '@platform/errors';

/**
 * A proto enum field of a request as its name: unset or unspecified (0) is absence (`undefined`); a number
 * outside the set (a newer or broken caller) is 422 / 1001 naming the field, as a bad string was.
 */
export function enumField<Name extends string>(
  set: ClosedSet<Name, number>,
  value: number | undefined,
  field: string,
): Name | undefined {
  if (value === undefined || value === 0) return undefined;
  const name = set.fromProto(value);
  if (name === undefined)
    throw BusinessError.validation({ [field]: [`allowed values: ${set.names.join(', ')}`] });
  return name;
}
