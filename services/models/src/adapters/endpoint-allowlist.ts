import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createServiceClient, type CallCredentials } from '@platform/grpc';

/** The origins model requests may go to: identity's `model_endpoint_allowlist` site setting. */
export interface EndpointAllowlist {
  origins(): Promise<readonly string[]>;
  close(): void;
}

export const ALLOWLIST_SETTING = 'model_endpoint_allowlist';

/**
 * Reads the setting from identity's internal GetEffectiveSettings on every check: checks happen on
 * admin actions only (save, test, discover), so a change applies at once without a cache to drop.
 */
export function identityEndpointAllowlist(address: string, credentials: CallCredentials): EndpointAllowlist {
  const client = createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    address,
    { defaultTimeoutMs: 5_000, credentials },
  );
  return {
    async origins() {
      const effective = await client.call('getEffectiveSettings', { keys: [ALLOWLIST_SETTING] });
      const value: unknown = effective.settings?.[ALLOWLIST_SETTING];
      return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
    },
    close: () => client.close(),
  };
}

/** A fixed list (tests of the rules that need no identity). */
export function staticEndpointAllowlist(origins: readonly string[]): EndpointAllowlist {
  return { origins: () => Promise.resolve(origins), close: () => undefined };
}
