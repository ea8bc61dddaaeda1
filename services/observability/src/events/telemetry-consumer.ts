import { ensureTopics, runBatchConsumer, Topics, type ConsumerHandle } from '@platform/kafka';
import { ingestAgentRounds, ingestWorkflowRuns } from '../data/facts-repository.js';
import type { ObservabilityDependencies } from '../deps.js';
import {
  agentRoundFact,
  workflowRunFact,
  type AgentRoundFact,
  type WorkflowRunFact,
} from '../domain/facts/fact-rules.js';

type Fact = { kind: 'round'; fact: AgentRoundFact } | { kind: 'run'; fact: WorkflowRunFact };

/** The two fact topics, under the configured prefix (tests use their own). */
export function telemetryTopics(prefix: string) {
  return { rounds: `${prefix}${Topics.AGENT_ROUNDS}`, runs: `${prefix}${Topics.WORKFLOW_RUNS}` };
}

/**
 * Reads `platform.agent-rounds` and `platform.workflow-runs` into the fact tables, one
 * transaction per fetched batch. Idempotent on the round / run id (the fact tables' primary keys),
 * so redeliveries and replays never count twice; malformed facts go to `<topic>.dlq`.
 */
export async function startTelemetryConsumer(deps: ObservabilityDependencies): Promise<ConsumerHandle> {
  const topics = telemetryTopics(deps.config.TELEMETRY_TOPIC_PREFIX);
  await ensureTopics(deps.kafka, [topics.rounds, topics.runs]);
  return runBatchConsumer<Fact>(deps.kafka, {
    groupId: deps.config.TELEMETRY_GROUP,
    topics: [topics.rounds, topics.runs],
    logger: deps.logger,
    // Both partitions' batches at once: the rollup upserts lock rows in key order.
    concurrency: 2,
    decode: (value, { topic, timestamp }) =>
      topic === topics.rounds
        ? { kind: 'round', fact: agentRoundFact(value, timestamp) }
        : { kind: 'run', fact: workflowRunFact(value, timestamp) },
    handle: async (items) => {
      const rounds = items.flatMap((item) => (item.kind === 'round' ? [item.fact] : []));
      const runs = items.flatMap((item) => (item.kind === 'run' ? [item.fact] : []));
      if (rounds.length > 0) await ingestAgentRounds(deps.pool, rounds);
      if (runs.length > 0) await ingestWorkflowRuns(deps.pool, runs);
    },
  });
}
