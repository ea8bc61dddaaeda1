import { runAgentDirectoryConsumer, type ConsumerHandle } from '@platform/kafka';
import { upsertAgentName } from '../data/agent-directory-repository.js';
import type { ObservabilityDependencies } from '../deps.js';

/** Agent names for the agent lists and details, from `platform.agent-directory`. */
export function startAgentDirectoryConsumer(deps: ObservabilityDependencies): Promise<ConsumerHandle> {
  return runAgentDirectoryConsumer(deps.kafka, {
    groupId: deps.config.AGENT_DIRECTORY_GROUP,
    logger: deps.logger,
    apply: (change) => upsertAgentName(deps.pool, change),
  });
}
