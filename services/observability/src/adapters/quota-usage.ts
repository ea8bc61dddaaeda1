import * as grantsV1 from '@platform/contracts/platform/models/v1/grants';
import { createServiceClient, type CallCredentials } from '@platform/grpc';
import type { Logger } from '@platform/logger';

/**
 * Tokens the team model quota counters (models) recorded over a range, for the `/tokens`
 * comparison of `7d` and `30d`. `null` = the counters could not be read; the endpoint then answers
 * from the facts alone with `quota_counters_used: false`.
 */
export interface QuotaUsageReader {
  tokensBetween(from: Date, to: Date): Promise<number | null>;
  close(): void;
}

/**
 * models' internal `GetModelUsageTotals` over every team and model. The counters are kept per
 * calendar month (models' quota periods), so the figure is the months the range touches; the spec
 * takes the larger of that and the facts. Unreachable models → null, never an error.
 */
export function modelsQuotaUsage(
  address: string,
  credentials: CallCredentials,
  logger: Logger,
): QuotaUsageReader {
  const client = createServiceClient(
    grantsV1.ModelQuotaServiceService,
    'platform.models.v1.ModelQuotaService',
    address,
    {
      defaultTimeoutMs: 3_000,
      credentials,
    },
  );
  return {
    async tokensBetween(from, to) {
      try {
        const totals = await client.call('getModelUsageTotals', {
          from: from.toISOString(),
          to: to.toISOString(),
          team_id: '',
          model_id: '',
        });
        return Number(totals.tokens);
      } catch (error) {
        logger.warn({ err: error }, 'model quota counters unavailable; /tokens answers from the facts');
        return null;
      }
    },
    close: () => client.close(),
  };
}
