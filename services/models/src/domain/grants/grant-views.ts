import type * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import type { GrantRow } from '../../data/grants-repository.js';
import { modelTypeValue, providerValue } from '../catalog/wire-values.js';
import type { UsagePeriod } from '../quota/usage-period.js';

/** bigint columns arrive as exact strings; quotas and counters stay below 2^53 (validated at the edge). */
export const toCount = (value: string | number | null): number => Number(value ?? 0);
export const toQuota = (value: string | null): number | undefined =>
  value === null ? undefined : Number(value);

export function periodUsage(period: UsagePeriod, tokens: number, requests: number): grantsV1.PeriodUsage {
  return {
    period: period.key,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    tokens,
    requests,
  };
}

export function toGrant(row: GrantRow, period: UsagePeriod): grantsV1.TeamModelGrant {
  return {
    id: row.id,
    team_id: row.team_id,
    model_id: row.model_id,
    model: {
      id: row.model_id,
      name: row.model_name,
      provider: providerValue(row.model_provider),
      provider_display_name: row.model_provider_display_name ?? '',
      model_type: modelTypeValue(row.model_type),
      is_enabled: row.model_is_enabled,
    },
    is_enabled: row.is_enabled,
    token_quota: toQuota(row.token_quota),
    request_quota: toQuota(row.request_quota),
    usage: periodUsage(period, toCount(row.used_tokens), toCount(row.used_requests)),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
