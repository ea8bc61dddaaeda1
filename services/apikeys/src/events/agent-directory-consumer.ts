import type { AgentDirectoryEntry } from '@platform/contracts/platform/events/v1/agent_directory';
import {
  ensureTopics,
  NonRetryableError,
  runConsumer,
  Topics,
  type ConsumerHandle,
  type ProcessedStore,
} from '@platform/kafka';
import { upsertAgent } from '../data/agent-directory-repository.js';
import type { ApiKeysDependencies } from '../deps.js';

/** Upserts are idempotent (latest `updated_at` wins), so redeliveries need no dedupe store. */
const noDedupe: ProcessedStore = {
  isProcessed: async () => false,
  markProcessed: async () => undefined,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Keeps `agent_directory` in step with `platform.agent-directory` (the agent runtime lives outside
 * this repository). One group shared by every replica: the table is shared too. The topic is
 * compacted (latest entry per agent id), so a new deployment rebuilds the table from the beginning.
 * A deleted agent keeps its row with null name and icon, the same as an agent never seen.
 */
export async function startAgentDirectoryConsumer(deps: ApiKeysDependencies): Promise<ConsumerHandle> {
  await ensureTopics(deps.kafka, [
    { topic: Topics.AGENT_DIRECTORY, config: { 'cleanup.policy': 'compact' } },
  ]);
  return runConsumer(deps.kafka, {
    groupId: deps.config.AGENT_DIRECTORY_GROUP,
    topics: [Topics.AGENT_DIRECTORY],
    fromBeginning: true,
    processedStore: noDedupe,
    logger: deps.logger,
    handler: async (message) => {
      const entry = message.value as Partial<AgentDirectoryEntry> | null;
      if (!entry || typeof entry.id !== 'string' || !UUID.test(entry.id)) {
        throw new NonRetryableError('agent directory entry without a UUID id');
      }
      const updatedAt = entry.updated_at ? new Date(entry.updated_at) : new Date(Number(message.timestamp));
      await upsertAgent(deps.pool, {
        id: entry.id,
        name: entry.deleted ? null : (entry.name ?? null) || null,
        icon: entry.deleted ? null : (entry.icon ?? null) || null,
        updatedAt: Number.isNaN(updatedAt.getTime()) ? new Date() : updatedAt,
      });
    },
  });
}
