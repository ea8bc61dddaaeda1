import {
  CODE_LOG_LEVELS,
  NODE_STATUSES,
  RUN_MODES,
  RUN_STATUSES,
  RUN_TRIGGER_TYPES,
  storedNameToProto,
  toJsonValue,
  toOptionalJsonValue,
  type workflowRunsV1,
} from '@platform/contracts';
import type { NodeExecutionRow, RunRow } from '../data/runs-repository.js';
import type { RunErrorValue } from '../domain/runs/engine/contract.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : '');

export const streamUrlOf = (run: Pick<RunRow, 'id' | 'workflow_id'>) =>
  `/workflows/${run.workflow_id}/runs/${run.id}/stream`;

export function toRunError(error: RunErrorValue | null | undefined): workflowRunsV1.RunError | undefined {
  if (!error) return undefined;
  return {
    code: error.code,
    message: error.message,
    node_id: error.node_id ?? '',
    data: error.data ? toJsonValue(error.data) : undefined,
  };
}

function toNode(row: NodeExecutionRow): workflowRunsV1.NodeExecution {
  return {
    node_id: row.node_id,
    node_type: row.node_type,
    status: storedNameToProto(NODE_STATUSES, row.status),
    started_at: row.status === 'skipped' ? '' : iso(row.started_at),
    duration_ms: Number(row.duration_ms),
    error: toRunError(row.error),
    tokens: Number(row.tokens),
    model: row.model ?? '',
    logs: row.logs
      ? {
          lines: row.logs.lines.map(({ level, text }) => ({
            level: storedNameToProto(CODE_LOG_LEVELS, level),
            text,
          })),
          truncated: row.logs.truncated,
        }
      : undefined,
  };
}

/** The wire form of a run; `total_duration_ms` from start to end (or to now while running). */
export function toRun(run: RunRow, nodes: NodeExecutionRow[], now: Date): workflowRunsV1.Run {
  const end = run.finished_at ?? (run.started_at ? now : null);
  return {
    id: run.id,
    workflow_id: run.workflow_id,
    status: RUN_STATUSES.toProto(run.status),
    mode: RUN_MODES.toProto(run.mode),
    version: run.version,
    inputs: toJsonValue(run.inputs ?? {}),
    outputs: toOptionalJsonValue(run.outputs ?? undefined),
    error: toRunError(run.error),
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    total_duration_ms: run.started_at && end ? Math.max(0, end.getTime() - run.started_at.getTime()) : 0,
    total_tokens: Number(run.total_tokens),
    node_executions: nodes.map(toNode),
    triggered_by: { type: storedNameToProto(RUN_TRIGGER_TYPES, run.trigger_type), id: run.trigger_id },
    created_at: iso(run.created_at),
    stream_url: streamUrlOf(run),
    inputs_truncated: run.inputs_truncated ?? false,
    outputs_truncated: run.outputs_truncated ?? false,
  };
}
