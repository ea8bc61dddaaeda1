import { randomUUID } from 'node:crypto';
import { runConsumer, Topics, type ConsumerHandle, type ProcessedStore } from '@platform/kafka';
import { SETTINGS_CHANGED } from '../domain/settings/update-site-settings.js';
import type { IdentityDependencies } from '../deps.js';

/** Cache drops are idempotent, so redeliveries need no dedupe store (and no Redis keys per replica). */
const noDedupe: ProcessedStore = {
  isProcessed: async () => false,
  markProcessed: async () => undefined,
};

/**
 * Drops this replica's settings cache when any replica announces `settings.changed`. The group id
 * is random per process so every replica gets every event (a shared group would deliver each event
 * to one replica only); it starts at the latest offset because older changes are already in the
 * database. Abandoned groups expire with the broker's offset retention (7 days by default).
 */
export async function startSettingsCacheConsumer(deps: IdentityDependencies): Promise<ConsumerHandle> {
  return runConsumer(deps.kafka, {
    groupId: `identity.settings-cache.${randomUUID()}`,
    topics: [Topics.DOMAIN_EVENTS],
    fromBeginning: false,
    processedStore: noDedupe,
    logger: deps.logger,
    handler: async (message) => {
      const type = message.eventType ?? (message.value as { type?: string } | null)?.type;
      if (type === SETTINGS_CHANGED) {
        deps.settings.invalidate();
        deps.logger.debug({ event_id: message.id }, 'settings cache dropped on settings.changed');
      }
    },
  });
}
