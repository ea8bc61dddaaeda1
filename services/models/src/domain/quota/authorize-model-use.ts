import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import { readAuthorization } from '../../data/usage-repository.js';
import type { GrantsDeps } from '../grants/grants-deps.js';
import { periodUsage, toCount, toQuota } from '../grants/grant-views.js';
import { periodOf } from './usage-period.js';

/**
 * The agent runtime's check before a model call, in this order: 6101 unknown model (no team
 * model can exist for it), 6104 the team has no grant, 6106 the model or the grant is disabled,
 * 6103 the current period's token or request quota is used up (used >= quota). A check, not a
 * reservation: calls already admitted may still record usage past the quota (docs/models.md).
 */
export async function authorizeModelUse(
  deps: Pick<GrantsDeps, 'pool' | 'now'>,
  request: grantsV1.AuthorizeModelUseRequest,
): Promise<grantsV1.ModelUseAuthorization> {
  if (!isUuid(request.model_id)) throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
  if (!isUuid(request.team_id)) throw new BusinessError(ErrorCode.MODEL_NOT_AUTHORIZED);
  const period = periodOf(deps.now());
  const row = await readAuthorization(deps.pool, request.team_id, request.model_id, period.startDate);
  if (!row) throw new BusinessError(ErrorCode.TEAM_MODEL_NOT_FOUND);
  if (!row.has_grant) throw new BusinessError(ErrorCode.MODEL_NOT_AUTHORIZED);
  if (!row.model_is_enabled || !row.grant_is_enabled) throw new BusinessError(ErrorCode.MODEL_DISABLED);
  const tokens = toCount(row.used_tokens);
  const requests = toCount(row.used_requests);
  const tokenQuota = toQuota(row.token_quota);
  const requestQuota = toQuota(row.request_quota);
  const usage = periodUsage(period, tokens, requests);
  if (
    (tokenQuota !== undefined && tokens >= tokenQuota) ||
    (requestQuota !== undefined && requests >= requestQuota)
  ) {
    throw new BusinessError(ErrorCode.MODEL_QUOTA_EXCEEDED, {
      data: {
        period: usage.period,
        period_end: usage.period_end,
        tokens_used: tokens,
        requests_used: requests,
        token_quota: tokenQuota ?? null,
        request_quota: requestQuota ?? null,
      },
    });
  }
  return { allowed: true, usage, token_quota: tokenQuota, request_quota: requestQuota };
}
