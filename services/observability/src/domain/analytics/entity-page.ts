import type { Counts } from '../../data/count-queries.js';
import type { EntitySelection } from '../../data/histogram-queries.js';
import { PERCENTILE_SORT_KEYS, sortAndPage, type Paging } from './parameters.js';
import type { PercentileSet } from '../../data/percentiles.js';

/** An entity's percentile sets (latency, then TTFT for agents); empty when it has none. */
export type PercentilesOf = (id: string) => Array<PercentileSet | undefined>;

/** The percentile level a sort key names (`p99` → 0.99). */
const SORT_LEVEL: Record<string, number> = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

/**
 * One page of an entity list (`/agents`, `/workflows`): every entity's counts, sorted and paged in
 * memory; every figure is then read for the page's entities only. A percentile sort key needs that
 * one percentile of every entity first (`percentiles(null, level)`).
 */
export async function entityPage<T>(options: {
  paging: Paging;
  counts: Promise<Map<string, Counts>>;
  /** `level`: only that percentile of the first metric (for sorting); else every figure. */
  percentiles: (entities: EntitySelection, level?: number) => Promise<PercentilesOf>;
  build: (id: string, counts: Counts, sets: Array<PercentileSet | undefined>) => T;
  idOf: (item: T) => string;
}): Promise<{ items: T[]; total: number; page: number; page_size: number }> {
  const { paging, build, idOf } = options;
  const byPercentile = PERCENTILE_SORT_KEYS.has(paging.sortBy);
  const none: PercentilesOf = () => [];
  const counts = await options.counts;
  // Sorting by a percentile: that percentile of every entity first; when every entity fits on the
  // page anyway, all figures of all of them in one read.
  const onePage = counts.size <= paging.pageSize;
  const every = byPercentile
    ? await options.percentiles(null, onePage ? undefined : SORT_LEVEL[paging.sortBy])
    : none;
  const page = sortAndPage(
    [...counts.entries()].map(([id, c]) => build(id, c, every(id))),
    paging,
    (item) => Number(item[paging.sortBy as keyof T]),
    idOf,
  );
  if (byPercentile && onePage) return page;
  if (page.items.length === 0) return page;
  const ofPage = await options.percentiles(page.items.map(idOf));
  return {
    ...page,
    items: page.items.map((item) => build(idOf(item), counts.get(idOf(item))!, ofPage(idOf(item)))),
  };
}
