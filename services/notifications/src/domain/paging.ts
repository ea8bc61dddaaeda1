import { BusinessError, readPaging as readSpecPaging } from '@platform/errors';

export interface Paging {
  page: number;
  pageSize: number;
  skip: number;
}

/**
 * The spec's paging (`readPaging` in @platform/errors: 422 / 1001, never clamped), plus a bound of
 * notifications' own: `window` bounds how deep a page may reach (`page × page_size`,
 * NOTIFICATION_PAGE_WINDOW): every page costs reading all the rows before it, so a deeper one is
 * 422 / 1001 on `page` with `data.limit` instead of a scan of the whole store.
 */
export function readPaging(page: number, pageSize: number, window: number): Paging {
  const { page: p, pageSize: size, offset } = readSpecPaging(page, pageSize);
  if (p * size > window) {
    throw BusinessError.validation(
      { page: [`page × page_size must be at most ${window}; narrow the list with filters instead`] },
      { data: { limit: window } },
    );
  }
  return { page: p, pageSize: size, skip: offset };
}

/** An optional ISO time filter (absent or '' = none). */
export function readTime(field: string, value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw BusinessError.validation({ [field]: ['must be an ISO 8601 time'] });
  return time;
}
