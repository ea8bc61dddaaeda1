import { BusinessError, isUuid } from '@platform/errors';
import { isTeamRole, type TeamRole } from '@platform/rbac';

/** DirectoryService limits (proto/platform/identity/v1/directory.proto). */
export const MAX_CONTACT_IDS = 1000;
export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 500;

/** 1001 / 422 (gRPC INVALID_ARGUMENT): a caller's programming error, named by field. */
const invalid = (field: string, message: string) => BusinessError.validation({ [field]: [message] });

export function requireUuid(field: string, value: string): string {
  if (!isUuid(value)) throw invalid(field, 'must be a UUID');
  return value.toLowerCase();
}

/** Distinct, lower-cased ids; every one must be a UUID and there may be at most 1000. */
export function contactIds(ids: readonly string[]): string[] {
  if (ids.length > MAX_CONTACT_IDS) throw invalid('ids', `at most ${MAX_CONTACT_IDS} ids a call`);
  const bad = ids.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw invalid('ids', `ids[${bad}] must be a UUID`);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** 0 means the default; anything else must be 1-1000. */
export function pageLimit(limit: number): number {
  if (limit === 0) return DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalid('limit', `must be between 1 and ${MAX_PAGE_LIMIT} (0 = ${DEFAULT_PAGE_LIMIT})`);
  }
  return limit;
}

export function teamRoles(roles: readonly string[]): TeamRole[] {
  const bad = roles.find((role) => !isTeamRole(role));
  if (bad !== undefined) throw invalid('roles', 'each role must be one of OWNER, ADMIN, MEMBER');
  return [...new Set(roles as TeamRole[])];
}

/**
 * Cursors are opaque to callers: the last id of the page, tagged with the list it belongs to so a
 * cursor from one list is refused by another rather than silently paging the wrong set.
 */
export type CursorList = 'team-members' | 'active-users';

export function encodeCursor(list: CursorList, lastId: string): string {
  return Buffer.from(`${list}:${lastId}`, 'utf8').toString('base64url');
}

/** The id after which the page starts; null for the first page. */
export function decodeCursor(list: CursorList, cursor: string): string | null {
  if (cursor === '') return null;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const prefix = `${list}:`;
  const id = decoded.startsWith(prefix) ? decoded.slice(prefix.length) : '';
  if (!isUuid(id)) throw invalid('cursor', 'not a cursor this list returned');
  return id.toLowerCase();
}
