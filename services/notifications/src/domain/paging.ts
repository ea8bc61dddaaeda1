import { BusinessError } from '@platform/errors';

export interface Paging {
  page: number;
  pageSize: number;
  skip: number;
}

/**
 * Spec: page >= 1 (default 1), page_size 1-100 (default 20); out of range is 422 / 1001, never
 * clamped. `window` bounds how deep a page may reach (`page × page_size`,
 * NOTIFICATION_PAGE_WINDOW): every page costs reading all the rows before it, so a deeper one is
 * 422 / 1001 on `page` with `data.limit` instead of a scan of the whole store.
 */
export function readPaging(page: number, pageSize: number, window: number): Paging {
  const p = page === 0 ? 1 : page;
  const size = pageSize === 0 ? 20 : pageSize;
  const errors: Record<string, string[]> = {};
  if (!Number.isInteger(p) || p < 1) errors.page = ['must be at least 1'];
  if (!Number.isInteger(size) || size < 1 || size > 100) errors.page_size = ['must be between 1 and 100'];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  if (p * size > window) {
    throw BusinessError.validation(
      { page: [`page × page_size must be at most ${window}; narrow the list with filters instead`] },
      { data: { limit: window } },
    );
  }
  return { page: p, pageSize: size, skip: (p - 1) * size };
}

/** An optional ISO time filter (absent or '' = none). */
export function readTime(field: string, value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw BusinessError.validation({ [field]: ['must be an ISO 8601 time'] });
  return time;
}
