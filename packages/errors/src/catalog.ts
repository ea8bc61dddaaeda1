import { ErrorCode, type ErrorConstant } from './codes.js';
import {
  ACCOUNT_ENTRIES,
  DUPLICATE_ENTRIES,
  FORBIDDEN_OPERATION_ENTRIES,
  LOGIN_SECURITY_ENTRIES,
  RATE_LIMIT_ENTRIES,
} from './catalog/account.js';
import { AGENT_ENTRIES, KNOWLEDGE_BASE_ENTRIES, MODEL_ENTRIES, SSO_ENTRIES } from './catalog/domain.js';
import type { CatalogEntry } from './catalog/define.js';
import { AUTH_ENTRIES, GENERAL_ENTRIES, PERMISSION_ENTRIES, RESOURCE_ENTRIES } from './catalog/general.js';

export type { AlternateStatus, CatalogEntry } from './catalog/define.js';

/**
 * The complete error catalog: every code of the spec (1000-6306, reserved ones included), ordered by
 * code. Each entry: `code`, `constant`, default `httpStatus`, `reserved`, default `msgKey`,
 * `messages` (`en`, `zh`) and the spec's situational `alternateStatuses`.
 *
 * To add a code: add it to `ErrorCode` (codes.ts) and an entry to the range file in `catalog/`;
 * the check below refuses to load a catalog that misses or duplicates a code.
 */
export const CATALOG: readonly CatalogEntry[] = Object.freeze(
  [
    ...GENERAL_ENTRIES,
    ...AUTH_ENTRIES,
    ...PERMISSION_ENTRIES,
    ...RESOURCE_ENTRIES,
    ...ACCOUNT_ENTRIES,
    ...DUPLICATE_ENTRIES,
    ...FORBIDDEN_OPERATION_ENTRIES,
    ...LOGIN_SECURITY_ENTRIES,
    ...RATE_LIMIT_ENTRIES,
    ...KNOWLEDGE_BASE_ENTRIES,
    ...MODEL_ENTRIES,
    ...AGENT_ENTRIES,
    ...SSO_ENTRIES,
  ].sort((a, b) => a.code - b.code),
);

const BY_CODE: ReadonlyMap<number, CatalogEntry> = new Map(CATALOG.map((entry) => [entry.code, entry]));

(function assertCatalogComplete(): void {
  const constants = Object.keys(ErrorCode) as ErrorConstant[];
  const missing = constants.filter((constant) => BY_CODE.get(ErrorCode[constant])?.constant !== constant);
  if (missing.length > 0 || BY_CODE.size !== CATALOG.length || CATALOG.length !== constants.length) {
    throw new Error(`@platform/errors: catalog out of sync with ErrorCode (missing: ${missing.join(', ')})`);
  }
})();

/** The catalog entry of a code, or undefined for a number that is not a spec code. */
export function getCatalogEntry(code: number): CatalogEntry | undefined {
  return BY_CODE.get(code);
}

/** True when `value` is one of the spec's codes (reserved ones included). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'number' && BY_CODE.has(value);
}
