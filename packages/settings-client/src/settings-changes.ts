import { hostname } from 'node:os';
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
  /** Names the consumer group `<service>.settings-cache.<instance>`. */
  service: string;
  /** This process's stable identity (default `settingsCacheInstance()`). */
  instance?: string;
  logger: Logger;
  /** Called for every `settings.changed` event. */
  onChange: () => void;
}

/**
 * The per-process part of the settings-cache group: `POD_NAME` (the downward API; Kubernetes),
 * else `<hostname>-<pid>` (several processes of one service on one machine, as tests start them).
 * Kept to the characters a group id and an ACL pattern take.
 */
export function settingsCacheInstance(env: Record<string, string | undefined> = process.env): string {
  const raw = env.POD_NAME?.trim() || `${hostname()}-${process.pid}`;
  return raw.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 150);
}

/** `<service>.settings-cache.<instance>`: under the service's group prefix (its Kafka ACL). */
export function settingsCacheGroup(service: string, instance = settingsCacheInstance()): string {
  return `${service}.settings-cache.${instance}`;
}

/**
 * Follows `settings.changed` on platform.domain-events for one process. The group is one per
 * replica (every replica must drop its own cache; a shared group would deliver each event to one
 * replica only), named after the pod, not a random id, so a restarted container rejoins its group
 * and the groups stay countable. It starts at the latest offset because older changes are already
 * in what the next read returns (a change announced before the group is first joined is missed:
 * the caller's TTL bounds that window). A replaced pod's group expires with the broker's offset
 * retention (`offsets.retention.minutes`, 7 days by default). One attempt: the caller retries
 * while Kafka is unreachable.
 */
export async function followSettingsChanges(
  kafka: KafkaClient,
  options: SettingsChangesOptions,
): Promise<ConsumerHandle> {
  return runConsumer(kafka, {
    groupId: settingsCacheGroup(options.service, options.instance),
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
