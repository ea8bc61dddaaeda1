import { BusinessError } from './business-error.js';

/**
 * The spec's paging, the one rule of every paged list: `page` >= 1 (default 1), `page_size` 1-100
 * (default 20). A value out of range is a validation error (422 / 1001 naming the field), never
 * clamped (ARCHITECTURE.md "Conventions where the spec is loose"). `maxPage` bounds the offset a
 * request can ask a database to skip. The gateway's query schema is built from these numbers.
 */
export const PAGING = {
  defaultPage: 1,
  maxPage: 1_000_000,
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

/** One page of a list: the numbers to answer with and the rows to read. */
export interface PageWindow {
  page: number;
  pageSize: number;
  /** Rows to read (= pageSize). */
  limit: number;
  /** Rows to skip before the page. */
  offset: number;
}

function inRange(value: number, max: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= max;
}

/**
 * What is wrong with a request's `page` / `page_size` (0 = the default), by field; empty when
 * nothing is. For a use case that reports every bad field of a request in one 1001.
 */
export function pagingErrors(page: number, pageSize: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const p = page === 0 ? PAGING.defaultPage : page;
  const size = pageSize === 0 ? PAGING.defaultPageSize : pageSize;
  if (!inRange(p, PAGING.maxPage)) errors.page = [`must be an integer from 1 to ${PAGING.maxPage}`];
  if (!inRange(size, PAGING.maxPageSize))
    errors.page_size = [`must be an integer from 1 to ${PAGING.maxPageSize}`];
  return errors;
}

/**
 * A service's reading of `page` / `page_size` from a request. proto3 has no "unset": 0 means the
 * default. The gateway already refused anything else out of range; this keeps a direct gRPC call
 * to the same rule.
 */
export function readPaging(page: number, pageSize: number): PageWindow {
  const errors = pagingErrors(page, pageSize);
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  const p = page === 0 ? PAGING.defaultPage : page;
  const size = pageSize === 0 ? PAGING.defaultPageSize : pageSize;
  return { page: p, pageSize: size, limit: size, offset: (p - 1) * size };
}
