import {
  CODE_LOG_LEVELS,
  fromJsonValue,
  NODE_STATUSES,
  RUN_MODES,
  RUN_STATUSES,
  RUN_TRIGGER_TYPES,
  type jsonValueV1,
  type workflowRunsV1,
} from '@platform/contracts';
import { z } from 'zod';

/** HTTP shapes of workflow runs: enums by name, unset JSON values and empty proto strings as null (docs/workflows.md "Runs"). */
const orNull = (value: string) => value || null;
const json = (value: jsonValueV1.JsonValue | undefined): unknown => fromJsonValue(value) ?? null;

export const runErrorSchema = z
  .object({
    code: z.number().int(),
    message: z.string(),
    node_id: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
  })
  .nullable();

export function toRunErrorBody(error: workflowRunsV1.RunError | undefined) {
  if (!error) return null;
  return {
    code: error.code,
    message: error.message,
    node_id: orNull(error.node_id),
    data: json(error.data) as Record<string, unknown> | null,
  };
}

const runStatus = z.enum(RUN_STATUSES.names);

export const startRunSchema = z.object({
  run_id: z.uuid(),
  status: runStatus,
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: runErrorSchema,
  stream_url: z.string().describe("path under /api/v1 of the run's Server-Sent Events stream"),
});

export function toStartedRun(response: workflowRunsV1.StartRunResponse) {
  return {
    run_id: response.run_id,
    status: RUN_STATUSES.fromProto(response.status),
    outputs: json(response.outputs),
    error: toRunErrorBody(response.error),
    stream_url: response.stream_url,
  };
}

const nodeExecutionSchema = z.object({
  node_id: z.string(),
  node_type: z.string(),
  status: z.enum(NODE_STATUSES.names),
  started_at: z.string().nullable(),
  duration_ms: z.number().int(),
  error: runErrorSchema,
  tokens: z.number().int(),
  model: z.string().nullable(),
  logs: z
    .object({
      lines: z.array(z.object({ level: z.enum(CODE_LOG_LEVELS.names), text: z.string() })),
      truncated: z.boolean().describe('the byte or line cap cut the output; the lines kept are the first'),
    })
    .nullable()
    .describe("what a code node's console printed (64 KiB, 1000 lines at most); null for other nodes"),
});

export const runSchema = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  status: runStatus,
  mode: z.enum(RUN_MODES.names),
  version: z.number().int().describe('the workflow version the run executed, pinned at start'),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: runErrorSchema,
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  total_duration_ms: z.number().int(),
  total_tokens: z.number().int(),
  node_executions: z.array(nodeExecutionSchema).describe('in execution order'),
  triggered_by: z.object({ type: z.enum(RUN_TRIGGER_TYPES.names), id: z.uuid() }),
  created_at: z.string(),
  stream_url: z.string(),
  inputs_truncated: z
    .boolean()
    .describe(
      'inputs were too large for this answer and are left out (`{}`); read the run (GET one) for them',
    ),
  outputs_truncated: z
    .boolean()
    .describe(
      'outputs were too large for this answer and are left out (null); read the run (GET one) for them',
    ),
});

export function toRunBody(run: workflowRunsV1.Run) {
  return {
    id: run.id,
    workflow_id: run.workflow_id,
    status: RUN_STATUSES.fromProto(run.status),
    mode: RUN_MODES.fromProto(run.mode),
    version: run.version,
    inputs: json(run.inputs) ?? {},
    outputs: json(run.outputs),
    error: toRunErrorBody(run.error),
    started_at: orNull(run.started_at),
    finished_at: orNull(run.finished_at),
    total_duration_ms: run.total_duration_ms,
    total_tokens: run.total_tokens,
    node_executions: run.node_executions.map((node) => ({
      node_id: node.node_id,
      node_type: node.node_type,
      status: NODE_STATUSES.fromProto(node.status),
      started_at: orNull(node.started_at),
      duration_ms: node.duration_ms,
      error: toRunErrorBody(node.error),
      tokens: node.tokens,
      model: orNull(node.model),
      logs: node.logs
        ? {
            lines: node.logs.lines.map(({ level, text }) => ({
              level: CODE_LOG_LEVELS.fromProto(level),
              text,
            })),
            truncated: node.logs.truncated,
          }
        : null,
    })),
    triggered_by: {
      type: RUN_TRIGGER_TYPES.fromProto(run.triggered_by?.type ?? 0) ?? 'user',
      id: run.triggered_by?.id ?? '',
    },
    created_at: run.created_at,
    stream_url: run.stream_url,
    inputs_truncated: run.inputs_truncated,
    outputs_truncated: run.outputs_truncated,
  };
}
