import { isUuid } from '@platform/errors';
import type { Logger } from '@platform/logger';
import { ensureTopics } from './admin.js';
import type { KafkaClient } from './client.js';
import { runConsumer, type ConsumerHandle } from './consumer.js';
import { NonRetryableError } from './errors.js';
import type { ProcessedStore } from './processed-store.js';
import { Topics } from './topics.js';

/** One decoded `platform.events.v1.AgentDirectoryEntry`; a deleted agent has null name and icon. */
export interface AgentDirectoryChange {
  id: string;
  name: string | null;
  icon: string | null;
  updatedAt: Date;
}

export interface AgentDirectoryConsumerOptions {
  groupId: string;
  logger: Logger;
  /** Stores the entry; must be idempotent and keep the newest `updatedAt` (redeliveries, replays). */
  apply: (change: AgentDirectoryChange) => Promise<void>;
}

/** Upserts are idempotent (latest `updated_at` wins), so redeliveries need no dedupe store. */
const noDedupe: ProcessedStore = {
  isProcessed: async () => false,
  markProcessed: async () => undefined,
};

/**
 * Follows `platform.agent-directory` (the agent runtime lives outside this repository) for every
 * service that names agents (apikeys, observability), each into its own table. One group per
 * service, shared by its replicas. The topic is compacted (latest entry per agent id), so a new
 * deployment rebuilds its table from the beginning.
 */
export async function runAgentDirectoryConsumer(
  kafka: KafkaClient,
  options: AgentDirectoryConsumerOptions,
): Promise<ConsumerHandle> {
  // Compacted, as the catalog declares it (topic-catalog.ts).
  await ensureTopics(kafka, [Topics.AGENT_DIRECTORY]);
  return runConsumer(kafka, {
    groupId: options.groupId,
    topics: [Topics.AGENT_DIRECTORY],
    fromBeginning: true,
    processedStore: noDedupe,
    logger: options.logger,
    handler: async (message) => {
      const entry = message.value as {
        id?: unknown;
        name?: unknown;
        icon?: unknown;
        deleted?: unknown;
        updated_at?: unknown;
      } | null;
      if (!entry || !isUuid(entry.id)) {
        throw new NonRetryableError('agent directory entry without a UUID id');
      }
      const text = (value: unknown) =>
        entry.deleted === true || typeof value !== 'string' ? null : value || null;
      const updatedAt =
        typeof entry.updated_at === 'string' && entry.updated_at
          ? new Date(entry.updated_at)
          : new Date(Number(message.timestamp));
      await options.apply({
        id: entry.id,
        name: text(entry.name),
        icon: text(entry.icon),
        updatedAt: Number.isNaN(updatedAt.getTime()) ? new Date() : updatedAt,
      });
    },
  });
}
