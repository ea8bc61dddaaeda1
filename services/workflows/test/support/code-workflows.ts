import { startServiceProcess, type ServiceProcess } from '@platform/testing';
import { definition, edge, node } from './definitions.js';
import type { TestUser, WorkflowsHarness } from './harness.js';

/** A sandbox worker (the built workflows image, PROCESS_ROLE=sandbox) serving `harness`'s queue. */
export function startSandboxWorker(
  harness: WorkflowsHarness,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  return startServiceProcess('workflows', {
    env: { PROCESS_ROLE: 'sandbox', QUEUE_TOPIC_PREFIX: harness.config.QUEUE_TOPIC_PREFIX, ...env },
  });
}

export interface CodeNodeData {
  code: string;
  inputs?: Record<string, unknown>;
  timeout_ms?: number;
  language?: unknown;
}

/** start (declared inputs) → code `calc` → end (declared outputs). */
export function codeDefinition(
  data: CodeNodeData,
  options: {
    startInputs?: { name: string; type: string; required?: boolean }[];
    outputs?: { name: string; value: string }[];
  } = {},
) {
  return definition(
    [
      node('start', 'start', { inputs: options.startInputs ?? [] }),
      node('calc', 'code', { language: 'javascript', ...data }),
      node('end', 'end', { outputs: options.outputs ?? [{ name: 'result', value: '{{calc}}' }] }),
    ],
    [edge('start', 'calc'), edge('calc', 'end')],
  );
}

export interface RunRecord {
  id: string;
  status: string;
  outputs: Record<string, unknown> | null;
  error: {
    code: number;
    message: string;
    node_id: string | null;
    data: Record<string, unknown> | null;
  } | null;
  node_executions: {
    node_id: string;
    status: string;
    error: { message: string; data: Record<string, unknown> | null } | null;
    logs: { lines: { level: string; text: string }[]; truncated: boolean } | null;
  }[];
}

/** Creates the workflow, runs it in debug (waiting for the end) and reads the run's record. */
export async function runCodeWorkflow(
  harness: WorkflowsHarness,
  user: TestUser,
  def: Record<string, unknown>,
  inputs: Record<string, unknown> = {},
): Promise<{ workflowId: string; run: RunRecord; calc: RunRecord['node_executions'][number] }> {
  const created = await harness.request('POST', '/workflows', {
    token: user.token,
    json: { name: `code-${Math.random().toString(36).slice(2, 8)}`, definition: def },
  });
  if (created.body.code !== 0) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const workflowId = String((created.body.data as { id: string }).id);
  const started = await harness.request('POST', `/workflows/${workflowId}/run`, {
    token: user.token,
    json: { inputs, mode: 'debug', wait: true },
  });
  if (started.body.code !== 0) throw new Error(`run: ${JSON.stringify(started.body)}`);
  const runId = String((started.body.data as { run_id: string }).run_id);
  const record = await harness.request('GET', `/workflows/${workflowId}/runs/${runId}`, {
    token: user.token,
  });
  const run = record.body.data as RunRecord;
  const calc = run.node_executions.find((n) => n.node_id === 'calc');
  if (!calc) throw new Error(`no calc node in ${JSON.stringify(run)}`);
  return { workflowId, run, calc };
}
