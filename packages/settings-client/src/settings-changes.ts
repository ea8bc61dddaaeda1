import { randomUUID } from 'node:crypto';
import {
  runConsumer,
  Topics,
  type ConsumerHandle,
  type KafkaClient,
  type ProcessedStore,
} from '@platform/kafka';
import type { Logger } from '@platform/logger';

/** The domain event identity publishes (platform.domain-events) when any site setting changes. */
export const SETTINGS_CHANGED = 'settings.changed';

/** Cache drops are idempotent, so redeliveries need no dedupe store (and no Redis keys per replica). */
const noDedupe: ProcessedStore = {
  isProcessed: async () => false,
  markProcessed: async () => undefined,
};

export interface SettingsChangesOptions {
  /** Names the consumer group `<service>.settings-cache.<uuid>`. */
  service: string;
  logger: Logger;
  /** Called for every `settings.changed` event. */
  onChange: () => void;
}

/**
 * Follows `settings.changed` on platform.domain-events for one process. The group id is random per
 * process so every replica gets every event (a shared group would deliver each event to one replica
 * only); it starts at the latest offset because older changes are already in what the next read
 * returns (a change announced before the group is joined is missed: the caller's TTL bounds that
 * window). Abandoned groups expire with the broker's offset retention (7 days by default).
 * One attempt: the caller retries while Kafka is unreachable.
 */
export async function followSettingsChanges(
  kafka: KafkaClient,
  options: SettingsChangesOptions,
): Promise<ConsumerHandle> {
  return runConsumer(kafka, {
    groupId: `${options.service}.settings-cache.${randomUUID()}`,
    topics: [Topics.DOMAIN_EVENTS],
    fromBeginning: false,
    processedStore: noDedupe,
    logger: options.logger,
    handler: async (message) => {
      const type = message.eventType ?? (message.value as { type?: string } | null)?.type;
      if (type !== SETTINGS_CHANGED) return;
      options.onChange();
      options.logger.debug({ event_id: message.id }, 'settings cache dropped on settings.changed');
    },
  });
}
