import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { BusinessError, isUuid, readPaging } from '@platform/errors';
import { listUsage, sumUsageByPeriod, type UsageFilter } from '../../data/usage-repository.js';
import type { GrantsDeps } from '../grants/grants-deps.js';
import { periodUsage, toCount } from '../grants/grant-views.js';
import { periodOfDate, periodsOverlapping, type UsagePeriod } from './usage-period.js';

/** Ten years of monthly periods: enough for any dashboard, bounded for the answer. */
const MAX_PERIODS = 120;

interface RangeRequest {
  from: string;
  to: string;
  team_id: string;
  model_id: string;
}

function parseInstant(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The periods overlapping [from, to) and the counter filter for them. */
function resolveRange(deps: Pick<GrantsDeps, 'now'>, request: RangeRequest) {
  const errors: Record<string, string[]> = {};
  const from = parseInstant(request.from);
  const to = request.to ? parseInstant(request.to) : deps.now();
  if (!from) errors.from = ['must be an ISO 8601 date-time'];
  if (!to) errors.to = ['must be an ISO 8601 date-time'];
  if (request.team_id && !isUuid(request.team_id)) errors.team_id = ['must be a UUID'];
  if (request.model_id && !isUuid(request.model_id)) errors.model_id = ['must be a UUID'];
  const periods = from && to ? periodsOverlapping(from, to) : [];
  if (from && to && periods.length === 0) errors.to = ['must be after from'];
  if (periods.length > MAX_PERIODS) errors.from = [`the range may span at most ${MAX_PERIODS} periods`];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors, { httpStatus: 400 });
  const filter: UsageFilter = {
    fromPeriod: periods[0]!.startDate,
    toPeriod: periods[periods.length - 1]!.startDate,
    teamId: request.team_id || null,
    modelId: request.model_id || null,
  };
  return { periods, filter };
}

/** Observability: counters per team, model and period over a time range, newest period first. */
export async function listModelUsage(
  deps: Pick<GrantsDeps, 'pool' | 'now'>,
  request: grantsV1.ListModelUsageRequest,
): Promise<grantsV1.ListModelUsageResponse> {
  const page = readPaging(request.page, request.page_size);
  const { filter } = resolveRange(deps, request);
  const { rows, total } = await listUsage(deps.pool, filter, page);
  return {
    items: rows.map((row) => ({
      team_id: row.team_id,
      model_id: row.model_id,
      usage: periodUsage(periodOfDate(row.period_start), toCount(row.tokens), toCount(row.requests)),
    })),
    total,
    page: page.page,
    page_size: page.pageSize,
  };
}

/** Observability: totals per period over a time range (every period listed, zero when unused). */
export async function getModelUsageTotals(
  deps: Pick<GrantsDeps, 'pool' | 'now'>,
  request: grantsV1.GetModelUsageTotalsRequest,
): Promise<grantsV1.ModelUsageTotals> {
  const { periods, filter } = resolveRange(deps, request);
  const sums = new Map((await sumUsageByPeriod(deps.pool, filter)).map((row) => [row.period_start, row]));
  const perPeriod = periods.map((period: UsagePeriod) => {
    const sum = sums.get(period.startDate);
    return periodUsage(period, toCount(sum?.tokens ?? 0), toCount(sum?.requests ?? 0));
  });
  return {
    periods: perPeriod,
    tokens: perPeriod.reduce((total, usage) => total + usage.tokens, 0),
    requests: perPeriod.reduce((total, usage) => total + usage.requests, 0),
  };
}
