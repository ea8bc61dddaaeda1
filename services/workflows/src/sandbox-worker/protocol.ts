import { Topics } from '@platform/kafka';
import type { RunResult } from '@platform/sandbox';

/**
 * The code node's wire contract between the workflows run worker and the sandbox worker
 * (docs/workflows.md "code"): a task on `queue.sandbox` (a TaskMessage whose `task` is
 * SANDBOX_TASK), one result on `platform.sandbox-results`. Both ends live in this image; the
 * types are JSON, snake_case like every other payload on the bus.
 */
export const SANDBOX_TASK = 'sandbox.run_code';

export interface SandboxTaskArgs {
  /** One per attempt: a result names the attempt it answers. */
  task_id: string;
  run_id: string;
  node_id: string;
  /** 1, or 2 when the first sandbox worker did not answer in time. */
  attempt: number;
  /** The results topic the waiting run worker reads. */
  reply_to: string;
  /** Epoch ms past which nobody waits for the result: a worker that gets the task later drops it. */
  expires_at: number;
  language: 'javascript';
  code: string;
  inputs: Record<string, unknown>;
  timeout_ms: number;
  memory_mb: number;
  max_output_bytes: number;
}

export interface SandboxReply {
  task_id: string;
  /** Which sandbox worker ran it (POD_NAME or host-pid), for the run's record and the logs. */
  worker: string;
  result: RunResult;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `args` is not a well-formed task (empty: it is). A malformed task is dead-lettered. */
export function taskArgsProblems(args: unknown): string[] {
  if (!isRecord(args)) return ['the args must be an object'];
  const problems: string[] = [];
  for (const field of ['task_id', 'run_id', 'node_id', 'reply_to', 'code'] as const) {
    if (typeof args[field] !== 'string' || args[field] === '') problems.push(`${field} must be a string`);
  }
  for (const field of ['attempt', 'expires_at', 'timeout_ms', 'memory_mb', 'max_output_bytes'] as const) {
    if (typeof args[field] !== 'number' || !Number.isFinite(args[field])) {
      problems.push(`${field} must be a number`);
    }
  }
  if (args.language !== 'javascript') problems.push('language must be javascript');
  if (!isRecord(args.inputs)) problems.push('inputs must be an object');
  return problems;
}

/** The reply's shape as the run worker reads it (anything else on the topic is ignored). */
export function isSandboxReply(value: unknown): value is SandboxReply {
  return (
    isRecord(value) &&
    typeof value.task_id === 'string' &&
    typeof value.worker === 'string' &&
    isRecord(value.result) &&
    typeof value.result.ok === 'boolean'
  );
}

/**
 * The prefixes tests put on the sandbox's two topics (QUEUE_TOPIC_PREFIX: the queue and, so one
 * test's results never reach another's run workers, the results topic too). Production: none.
 */
export function sandboxTopicPrefixes(prefix: string) {
  return { queues: prefix, topics: { [Topics.SANDBOX_RESULTS]: prefix } };
}

/** The results topic as named on the wire. */
export const sandboxResultsTopic = (prefix: string) => `${prefix}${Topics.SANDBOX_RESULTS}`;
