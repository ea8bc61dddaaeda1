import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { BusinessError, isUuid } from '@platform/errors';
import { addUsageOnce, findRecordedKey } from '../../data/usage-repository.js';
import type { GrantsDeps } from '../grants/grants-deps.js';
import { periodUsage, toCount } from '../grants/grant-views.js';
import { periodOf, periodOfDate } from './usage-period.js';

/** One call's usage stays far below this; it keeps the counters exact in a JavaScript number. */
const MAX_AMOUNT = 1_000_000_000_000;
const KEY = /^[\x21-\x7e]{1,200}$/;

function validate(request: grantsV1.RecordModelUsageRequest): void {
  const errors: Record<string, string[]> = {};
  if (!isUuid(request.team_id)) errors.team_id = ['must be a UUID'];
  if (!isUuid(request.model_id)) errors.model_id = ['must be a UUID'];
  for (const field of ['tokens', 'requests'] as const) {
    const value = request[field];
    if (!Number.isSafeInteger(value) || value < 0 || value > MAX_AMOUNT) {
      errors[field] = [`must be a whole number from 0 to ${MAX_AMOUNT}`];
    }
  }
  if (!KEY.test(request.idempotency_key)) {
    errors.idempotency_key = ['1-200 printable ASCII characters without spaces'];
  }
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors, { httpStatus: 400 });
}

/**
 * Adds a model call's tokens and requests to the current period's counters of the team and model,
 * exactly once per idempotency key (a retry, also concurrent with the first attempt, adds
 * nothing and answers `duplicate`). Recorded whether or not the grant still exists: the usage
 * happened. A key reused for a different usage is refused (1001), not silently merged.
 */
export async function recordModelUsage(
  deps: Pick<GrantsDeps, 'pool' | 'now'>,
  request: grantsV1.RecordModelUsageRequest,
): Promise<grantsV1.RecordModelUsageResponse> {
  validate(request);
  const period = periodOf(deps.now());
  const counters = await addUsageOnce(deps.pool, {
    idempotencyKey: request.idempotency_key,
    teamId: request.team_id,
    modelId: request.model_id,
    periodStart: period.startDate,
    tokens: request.tokens,
    requests: request.requests,
  });
  if (counters) {
    return {
      duplicate: false,
      usage: periodUsage(period, toCount(counters.tokens), toCount(counters.requests)),
    };
  }
  const earlier = await findRecordedKey(deps.pool, request.idempotency_key);
  if (!earlier) throw new Error('usage record vanished after its conflict');
  const same =
    earlier.team_id === request.team_id.toLowerCase() &&
    earlier.model_id === request.model_id.toLowerCase() &&
    toCount(earlier.tokens) === request.tokens &&
    toCount(earlier.requests) === request.requests;
  if (!same) {
    throw BusinessError.validation(
      { idempotency_key: ['already recorded for a different team, model or amount'] },
      { httpStatus: 400 },
    );
  }
  return {
    duplicate: true,
    usage: periodUsage(
      periodOfDate(earlier.period_start),
      toCount(earlier.counter_tokens),
      toCount(earlier.counter_requests),
    ),
  };
}
