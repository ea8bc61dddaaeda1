import { ErrorCode, getCatalogEntry } from '@platform/errors';
import type { RouteDefinition, RouteError } from '../routes/route-definition.js';

/** One documented error answer: the HTTP status and the codes that can come with it. */
export type ErrorStatusCodes = Map<number, Set<ErrorCode>>;

function add(statuses: ErrorStatusCodes, status: number, ...codes: ErrorCode[]): void {
  const set = statuses.get(status) ?? new Set<ErrorCode>();
  for (const code of codes) set.add(code);
  statuses.set(status, set);
}

function declared(error: RouteError): { code: ErrorCode; status: number } {
  if (typeof error === 'object') return error;
  return { code: error, status: getCatalogEntry(error)?.httpStatus ?? 400 };
}

/**
 * Every error answer a route can give, by HTTP status: what the edge itself raises, derived from
 * the route's shape (docs/gateway.md "Error responses"), plus the business codes the route lists
 * in `errors` (at their catalog status unless the entry names another).
 */
export function errorStatusCodes(route: RouteDefinition<unknown>): ErrorStatusCodes {
  const statuses: ErrorStatusCodes = new Map();
  // Any request: a malformed JSON body, a path that is not valid percent-encoding.
  add(statuses, 400, ErrorCode.BAD_REQUEST);
  add(statuses, 500, ErrorCode.INTERNAL_ERROR);
  for (const error of route.errors ?? []) {
    const { code, status } = declared(error);
    add(statuses, status, code);
  }
  if (route.tags.includes('health')) return statuses;
  // Every other route calls a service: down → 503, too slow → 504.
  add(statuses, 503, ErrorCode.INTERNAL_ERROR);
  add(statuses, 504, ErrorCode.INTERNAL_ERROR);
  if (route.params || route.query || route.body) add(statuses, 422, ErrorCode.VALIDATION_ERROR);
  if (route.params) add(statuses, 404, ErrorCode.NOT_FOUND);
  if (route.body) {
    add(statuses, 413, ErrorCode.BAD_REQUEST);
    add(statuses, 415, ErrorCode.BAD_REQUEST);
  }
  if (route.auth !== 'public') {
    add(statuses, 401, ErrorCode.UNAUTHORIZED, ErrorCode.INVALID_TOKEN, ErrorCode.INACTIVE_USER);
    if (route.auth === 'user_or_api_key') add(statuses, 401, ErrorCode.TOKEN_EXPIRED);
    add(statuses, 403, ErrorCode.INVALID_CREDENTIALS);
    if (route.permission || route.apiKeyScope) add(statuses, 403, ErrorCode.PERMISSION_DENIED);
  }
  return statuses;
}

/** `4001 USER_NOT_FOUND, 4004 TEAM_NOT_FOUND`: the description of one error response. */
export function describeCodes(codes: Iterable<ErrorCode>): string {
  const listed = [...codes]
    .sort((a, b) => a - b)
    .map((code) => `${code} ${getCatalogEntry(code)?.constant ?? ''}`.trim());
  return `Error envelope; \`code\` is one of: ${listed.join(', ')}`;
}
