import { BusinessError, readPaging } from '@platform/errors';
import type { Pool } from '@platform/db';
import { readStatementStats, type StatementRow, type UnavailableReason } from '../../data/statement-stats.js';

export const DEFAULT_THRESHOLD_MS = 1000;
const MAX_INT32 = 2_147_483_647;

export interface SlowQueryRequest {
  threshold_ms: number;
  page: number;
  page_size: number;
}

export interface SlowQueries {
  available: boolean;
  /** Only when not available. */
  reason?: UnavailableReason;
  items: StatementRow[];
  total: number;
  page: number;
  page_size: number;
  threshold_ms: number;
}

/** proto3 has no "unset": 0 means the default. Anything out of range is 1001 (HTTP 400 from here). */
export function normalizeSlowQueryRequest(request: Partial<SlowQueryRequest>): SlowQueryRequest {
  const threshold = request.threshold_ms || DEFAULT_THRESHOLD_MS;
  const { page, pageSize } = readPaging(request.page ?? 0, request.page_size ?? 0);
  const errors: Record<string, string[]> = {};
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > MAX_INT32)
    errors.threshold_ms = ['must be >= 1'];
  if (Object.keys(errors).length) throw BusinessError.validation(errors, { httpStatus: 400 });
  return { threshold_ms: threshold, page, page_size: pageSize };
}

/** Statements whose mean execution time is at least `threshold_ms`, slowest first, paged. */
export async function listSlowQueries(
  pool: Pool,
  databases: string[],
  raw: Partial<SlowQueryRequest>,
): Promise<SlowQueries> {
  const request = normalizeSlowQueryRequest(raw);
  const page = await readStatementStats(pool, {
    thresholdMs: request.threshold_ms,
    databases,
    limit: request.page_size,
    offset: (request.page - 1) * request.page_size,
  });
  const base = { ...request, items: [] as StatementRow[], total: 0 };
  if (!page.available) return { ...base, available: false, reason: page.reason };
  return { ...base, available: true, items: page.items, total: page.total };
}
