import { TIME_RANGES as TIME_RANGE_SET } from '@platform/contracts';
import { BusinessError, isUuid, pagingErrors, readPaging } from '@platform/errors';
import { rangeStart, type Granularity, type Paging, type Window } from './query-contract.js';

export { rangeStart, type Granularity, type Paging, type Window } from './query-contract.js';

/** The closed set is the contract's (packages/contracts observability-sets.ts). */
export const TIME_RANGES = TIME_RANGE_SET.names;
export type TimeRange = (typeof TIME_RANGES)[number];

const DAYS: Record<TimeRange, number | null> = { '7d': 7, '30d': 30, '90d': 90, all: null };

/** Spec: anything but the four values (absent included) is `30d`, never an error. */
export function timeRangeOf(value: string | undefined): TimeRange {
  return (TIME_RANGES as readonly string[]).includes(value ?? '') ? (value as TimeRange) : '30d';
}

/**
 * Agent and workflow ids are UUIDs: anything else (`not-a-uuid`, a path like `../../etc/passwd`)
 * is 1001 naming the parameter instead of a page of zeros. The gateway refuses it first (422).
 */
export function entityIdOf(id: string, field: 'agent_id' | 'workflow_id'): string {
  if (!isUuid(id)) throw BusinessError.validation({ [field]: ['must be a UUID'] }, { httpStatus: 400 });
  return id;
}

/** Spec: `hour` or `day`; default `hour` for 7d, else `day`. Anything else is 422 / 1001. */
export function granularityOf(value: string | undefined, range: TimeRange): Granularity {
  if (value === undefined || value === '') return range === '7d' ? 'hour' : 'day';
  if (value === 'hour' || value === 'day') return value;
  throw BusinessError.validation({ granularity: ['must be hour or day'] });
}

const WINDOW_IDS: Record<TimeRange, number> = { '7d': 1, '30d': 2, '90d': 3, all: 4 };

export function windowOf(range: TimeRange, now: Date): Window {
  const days = DAYS[range];
  if (days === null) return { win: WINDOW_IDS[range], from: null };
  return {
    win: WINDOW_IDS[range],
    from: rangeStart(days, now),
  };
}

/** Sort keys that need every entity's percentiles; any other key needs only the page's. */
export const PERCENTILE_SORT_KEYS: ReadonlySet<string> = new Set(['p50', 'p90', 'p95', 'p99']);

/** Spec paging: page >= 1, page_size 1-100 (default 20), sort_order asc|desc (default desc). */
export function pagingOf(
  request: { page: number; page_size: number; sort_by: string; sort_order: string },
  sortKeys: readonly string[],
  defaultSort: string,
): Paging {
  // Every bad field of the request in one 1001, paging's included.
  const errors = pagingErrors(request.page, request.page_size);
  const sortBy = request.sort_by || defaultSort;
  if (!sortKeys.includes(sortBy)) errors.sort_by = [`must be one of ${sortKeys.join(', ')}`];
  const order = request.sort_order || 'desc';
  if (order !== 'asc' && order !== 'desc') errors.sort_order = ['must be asc or desc'];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  const { page, pageSize } = readPaging(request.page, request.page_size);
  return { page, pageSize, sortBy, descending: order === 'desc' };
}

/** A share in percent, 0 when there is nothing to share (never NaN or null). */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}

/** Sorts by one numeric key (ties by id, ascending, so pages are stable) and cuts one page. */
export function sortAndPage<T>(
  items: T[],
  paging: Paging,
  key: (item: T) => number,
  id: (item: T) => string,
): { items: T[]; total: number; page: number; page_size: number } {
  const sign = paging.descending ? -1 : 1;
  const sorted = [...items].sort(
    (a, b) => sign * (key(a) - key(b)) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0),
  );
  const start = (paging.page - 1) * paging.pageSize;
  return {
    items: sorted.slice(start, start + paging.pageSize),
    total: items.length,
    page: paging.page,
    page_size: paging.pageSize,
  };
}
