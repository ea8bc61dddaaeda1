import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createServiceClient, type CallCredentials } from '@platform/grpc';

/** The site settings as identity's GetEffectiveSettings gives them (secrets decrypted). */
export interface SettingsSource {
  get(): Promise<Record<string, unknown>>;
}

/**
 * Reads settings from identity with a short cache (a changed channel applies within `ttlMs`).
 * Interim: replaced by the shared `@platform/settings-client` (cache dropped on `settings.changed`)
 * once it lands; the interface is the same.
 */
export function identitySettingsSource(
  address: string,
  credentials: CallCredentials,
  ttlMs = 2_000,
): SettingsSource & { close(): void } {
  const client = createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    address,
    { defaultTimeoutMs: 5_000, credentials },
  );
  let cached: { value: Record<string, unknown>; until: number } | undefined;
  let inFlight: Promise<Record<string, unknown>> | undefined;
  return {
    async get() {
      if (cached && cached.until > Date.now()) return cached.value;
      inFlight ??= client
        .call('getEffectiveSettings', { keys: [] })
        .then((answer) => {
          const value = answer.settings ?? {};
          cached = { value, until: Date.now() + ttlMs };
          return value;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    close: () => client.close(),
  };
}
