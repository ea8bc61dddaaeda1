import { BusinessError, ErrorCode } from '@platform/errors';

/** What a fairness refusal counted (docs/security.md "Fairness between users"). */
export type LimitedResource = 'unfinished_runs' | 'open_streams' | 'waiting_calls';

/**
 * The refusal of one more run, stream or wait past a per-user or per-team limit: 400 / 5400
 * (the spec keeps HTTP 429 for 6103), `data` naming the limit, who it counts (`scope`) and what.
 */
export function limitReached(
  resource: LimitedResource,
  scope: 'user' | 'team',
  limit: number,
): BusinessError {
  return new BusinessError(ErrorCode.RATE_LIMITED, { data: { limit, scope, resource } });
}
