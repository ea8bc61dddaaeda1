/**
 * Tokens the team model quota counters (models) recorded over a range, for the `/tokens`
 * comparison of `7d` and `30d`. `null` = the counters could not be read; the endpoint then answers
 * from the facts alone with `quota_counters_used: false`.
 */
export interface QuotaUsageReader {
  tokensBetween(from: Date, to: Date): Promise<number | null>;
  close(): void;
}

/** Used until models' usage read RPC is wired (see docs/observability.md, "Quota counters"). */
export const noQuotaCounters: QuotaUsageReader = {
  tokensBetween: async () => null,
  close: () => undefined,
};
