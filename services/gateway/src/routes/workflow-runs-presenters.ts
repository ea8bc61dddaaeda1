import type { workflowRunsV1 } from '@platform/contracts';
import { z } from 'zod';

/** HTTP shapes of workflow runs: JSON texts parsed, empty proto strings as null (docs/workflows.md "Runs"). */
const orNull = (value: string) => value || null;
const json = (text: string): unknown => (text ? (JSON.parse(text) as unknown) : null);

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
    data: json(error.data_json) as Record<string, unknown> | null,
  };
}

const runStatus = z.enum(['queued', 'running', 'success', 'failed', 'timeout']);

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
    status: response.status,
    outputs: json(response.outputs_json),
    error: toRunErrorBody(response.error),
    stream_url: response.stream_url,
  };
}

const nodeExecutionSchema = z.object({
  node_id: z.string(),
  node_type: z.string(),
  status: z.enum(['running', 'success', 'failed', 'skipped', 'timeout']),
  started_at: z.string().nullable(),
  duration_ms: z.number().int(),
  error: runErrorSchema,
  tokens: z.number().int(),
  model: z.string().nullable(),
  logs: z
    .object({
      lines: z.array(z.object({ level: z.enum(['log', 'info', 'warn', 'error']), text: z.string() })),
      truncated: z.boolean().describe('the byte or line cap cut the output; the lines kept are the first'),
    })
    .nullable()
    .describe("what a code node's console printed (64 KiB, 1000 lines at most); null for other nodes"),
});

export const runSchema = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  status: runStatus,
  mode: z.enum(['production', 'debug']),
  version: z.number().int().describe('the workflow version the run executed, pinned at start'),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: runErrorSchema,
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  total_duration_ms: z.number().int(),
  total_tokens: z.number().int(),
  node_executions: z.array(nodeExecutionSchema).describe('in execution order'),
  triggered_by: z.object({ type: z.enum(['user', 'api_key']), id: z.uuid() }),
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
    status: run.status,
    mode: run.mode,
    version: run.version,
    inputs: json(run.inputs_json) ?? {},
    outputs: json(run.outputs_json),
    error: toRunErrorBody(run.error),
    started_at: orNull(run.started_at),
    finished_at: orNull(run.finished_at),
    total_duration_ms: run.total_duration_ms,
    total_tokens: run.total_tokens,
    node_executions: run.node_executions.map((node) => ({
      node_id: node.node_id,
      node_type: node.node_type,
      status: node.status,
      started_at: orNull(node.started_at),
      duration_ms: node.duration_ms,
      error: toRunErrorBody(node.error),
      tokens: node.tokens,
      model: orNull(node.model),
      logs: node.logs ? { lines: node.logs.lines, truncated: node.logs.truncated } : null,
    })),
    triggered_by: { type: run.triggered_by?.type ?? 'user', id: run.triggered_by?.id ?? '' },
    created_at: run.created_at,
    stream_url: run.stream_url,
    inputs_truncated: run.inputs_truncated,
    outputs_truncated: run.outputs_truncated,
  };
}
