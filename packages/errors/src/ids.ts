/**
 * The platform's ids are UUIDs as Postgres prints them: 8-4-4-4-12 hex digits, either case, any
 * version (no version or variant check: ids minted elsewhere, such as the agent runtime's, pass).
 * Services test an id before it reaches a `uuid` column, so a malformed one is a clean "not found"
 * or "must be a UUID" rather than a database error. The gateway's `z.uuid()` is stricter at the
 * edge (RFC 9562 version and variant); this is the rule behind it that every service shares.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
