import { counter, histogram, LONG_BUCKETS, secondsSince, withSpan } from '@platform/telemetry';
import type { PlannedNode } from './plan.js';
import type { NodeRun } from './run-node.js';

/** How one execution of a node ended: its outcome's status, or `interrupted` (lease lost, worker stopping). */
export type NodeMetricOutcome = 'success' | 'failed' | 'timeout' | 'interrupted';

/**
 * `node_type` is a type of the node set (planRun refuses any other at StartRun), so the label's
 * values are a closed set; never a node id.
 */
const nodeDurationSeconds = histogram<'node_type' | 'outcome'>({
  name: 'workflow_node_duration_seconds',
  help: 'One execution of a node, by node type and outcome (success | failed | timeout | interrupted).',
  labelNames: ['node_type', 'outcome'],
  buckets: LONG_BUCKETS,
});

const runResumes = counter({
  name: 'workflow_run_resumes_total',
  help: 'Runs this worker continued from their journal (nodes recorded by an earlier worker).',
});

/** A run continues after nodes an earlier worker recorded (it resumes after the last finished one). */
export function countResume(): void {
  runResumes.inc();
}

/**
 * Runs one node inside its span `workflow.node <type>` (a child of the run's `workflow.run` span;
 * what the node calls — the models service, the model provider, an HTTP endpoint — becomes its
 * child) and records its duration by type and outcome.
 */
export async function tracedNode(
  planned: PlannedNode,
  attempt: number,
  run: () => Promise<NodeRun>,
): Promise<NodeRun> {
  const startedAt = performance.now();
  let outcome: NodeMetricOutcome = 'interrupted';
  try {
    return await withSpan(
      `workflow.node ${planned.type}`,
      {
        attributes: {
          'workflow.node.id': planned.id,
          'workflow.node.type': planned.type,
          'workflow.node.attempt': attempt,
        },
      },
      async (span) => {
        const ran = await run();
        outcome = ran.outcome.status;
        span.setAttribute('workflow.node.outcome', outcome);
        if (outcome !== 'success') {
          span.setStatus({ code: 2, message: ran.outcome.error?.message.slice(0, 200) ?? outcome });
        }
        return ran;
      },
    );
  } finally {
    nodeDurationSeconds.observe({ node_type: planned.type, outcome }, secondsSince(startedAt));
  }
}
