import { NonRetryableError } from '@platform/kafka';
import type { AgentRoundFact, WorkflowRunFact } from './fact-contract.js';

export {
  hourOf,
  METRIC,
  SOURCE,
  type AgentRoundFact,
  type NodeFact,
  type WorkflowRunFact,
} from './fact-contract.js';

/** Node statuses that count as a failed node. */
const FAILED_NODE = new Set(['failed', 'error', 'timeout']);

type Json = Record<string, unknown>;

function text(value: unknown, field: string, required = false): string {
  if (value === undefined || value === null || value === '') {
    if (required) throw new NonRetryableError(`telemetry fact without ${field}`);
    return '';
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (typeof value !== 'string' || value.length > 200 || /[\u0000-\u001f]/.test(value)) {
    throw new NonRetryableError(`telemetry fact with a malformed ${field}`);
  }
  return value;
}

/** Durations are integer milliseconds (rounded), never negative: what makes the histograms lossless. */
function millis(value: unknown, field: string): number {
  const number = value === undefined || value === null || value === '' ? 0 : Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 2_147_483_647) {
    throw new NonRetryableError(`telemetry fact with a malformed ${field}`);
  }
  return Math.round(number);
}

function count(value: unknown, field: string): number {
  const number = value === undefined || value === null || value === '' ? 0 : Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new NonRetryableError(`malformed ${field}`);
  return number;
}

function instant(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function object(value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NonRetryableError('telemetry fact is not an object');
  }
  return value as Json;
}

/** Decodes one `platform.events.v1.AgentRound` (JSON); `brokerTime` stands in for a missing time. */
export function agentRoundFact(value: unknown, brokerTime: Date): AgentRoundFact {
  const round = object(value);
  const firstToken = millis(round.first_token_ms, 'first_token_ms');
  const startedAt = instant(round.started_at);
  return {
    id: text(round.id, 'id', true),
    agentId: text(round.agent_id, 'agent_id', true),
    userId: text(round.user_id, 'user_id'),
    teamId: text(round.team_id, 'team_id'),
    status: text(round.round_status, 'round_status', true),
    durationMs: millis(round.duration_ms, 'duration_ms'),
    firstTokenMs: firstToken > 0 ? firstToken : null,
    promptTokens: count(round.prompt_tokens, 'prompt_tokens'),
    completionTokens: count(round.completion_tokens, 'completion_tokens'),
    model: text(round.model, 'model'),
    startedAt,
    finishedAt: instant(round.finished_at) ?? startedAt ?? brokerTime,
  };
}

/** Decodes one `platform.events.v1.WorkflowRun` (JSON). */
export function workflowRunFact(value: unknown, brokerTime: Date): WorkflowRunFact {
  const run = object(value);
  const startedAt = instant(run.started_at);
  const status = text(run.status, 'status', true);
  const nodes = Array.isArray(run.nodes) ? run.nodes : [];
  return {
    id: text(run.id, 'id', true),
    workflowId: text(run.workflow_id, 'workflow_id', true),
    userId: text(run.user_id, 'user_id'),
    teamId: text(run.team_id, 'team_id'),
    status,
    totalDurationMs: millis(run.total_duration_ms, 'total_duration_ms'),
    totalTokens: count(run.total_tokens, 'total_tokens'),
    startedAt,
    finishedAt: (status === 'running' ? null : instant(run.finished_at)) ?? startedAt ?? brokerTime,
    nodes: nodes.map((node) => {
      const entry = object(node);
      return {
        nodeType: text(entry.node_type, 'node_type') || 'unknown',
        failed: FAILED_NODE.has(text(entry.status, 'node status')),
        durationMs: millis(entry.duration_ms, 'node duration_ms'),
      };
    }),
  };
}
