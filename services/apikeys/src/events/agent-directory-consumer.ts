import { runAgentDirectoryConsumer, type ConsumerHandle } from '@platform/kafka';
import { upsertAgent } from '../data/agent-directory-repository.js';
import type { ApiKeysDependencies } from '../deps.js';

/**
 * Keeps `agent_directory` in step with `platform.agent-directory` (the shared consumer in
 * @platform/kafka). A deleted agent keeps its row with null name and icon, the same as an agent
 * never seen.
 */
export function startAgentDirectoryConsumer(deps: ApiKeysDependencies): Promise<ConsumerHandle> {
  return runAgentDirectoryConsumer(deps.kafka, {
    groupId: deps.config.AGENT_DIRECTORY_GROUP,
    logger: deps.logger,
    apply: (change) => upsertAgent(deps.pool, change),
  });
}
