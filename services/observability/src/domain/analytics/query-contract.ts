// What an analytics query asks the data layer for: the window and paging the domain has already
// checked (parameters.ts). data/ reads these shapes; it imports no use case.
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type Granularity = 'hour' | 'day';

/**
 * The facts a range covers: `finished_at >= from` (no upper bound), `from` being the start of the
 * UTC hour N days before now, so every range is whole hourly rollup buckets. `all`: no bound.
 * `win` is the range's sliding window (data/window-advance.ts): 1 = 7d, 2 = 30d, 3 = 90d, 4 = all.
 */
export interface Window {
  win: number;
  from: Date | null;
}

/** Start of the UTC hour `days` days before `now`: where a range (and its sliding window) starts. */
export function rangeStart(days: number, now: Date): Date {
  return new Date(Math.floor((now.getTime() - days * DAY_MS) / HOUR_MS) * HOUR_MS);
}

export interface Paging {
  page: number;
  pageSize: number;
  sortBy: string;
  descending: boolean;
}
