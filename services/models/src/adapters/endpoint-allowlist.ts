import type { OutgoingTrust } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { createSettingsClient } from '@platform/settings-client';

/** The origins model requests may go to: identity's `model_endpoint_allowlist` site setting. */
export interface EndpointAllowlist {
  origins(): Promise<readonly string[]>;
  close(): Promise<void>;
}

export const ALLOWLIST_SETTING = 'model_endpoint_allowlist';

/**
 * Reads the setting through the shared settings client on every check (TTL 0): checks happen on
 * admin actions only (save, test, discover), so an allowlist change applies to the very next call
 * without waiting for `settings.changed`, and a removed entry never keeps working from a cache.
 * When identity cannot answer, the check fails (no stale fallback) and the admin action with it.
 */
export function identityEndpointAllowlist(
  address: string,
  trust: OutgoingTrust,
  logger: Logger,
): EndpointAllowlist {
  const settings = createSettingsClient({
    address,
    trust,
    logger,
    service: 'models',
    ttlMs: 0,
    keys: [ALLOWLIST_SETTING],
  });
  return {
    async origins() {
      const value: unknown = (await settings.get())[ALLOWLIST_SETTING];
      return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
    },
    close: () => settings.stop(),
  };
}
