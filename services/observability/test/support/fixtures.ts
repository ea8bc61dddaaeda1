import { randomUUID } from 'node:crypto';

/** An agent round as the agent runtime publishes it (platform.events.v1.AgentRound, JSON). */
export function round(fields: {
  agent_id: string;
  round_status: string;
  duration_ms: number;
  first_token_ms?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  model?: string;
  finished_at: Date;
  id?: string;
}) {
  return {
    id: fields.id ?? randomUUID(),
    agent_id: fields.agent_id,
    conversation_id: randomUUID(),
    message_id: randomUUID(),
    user_id: randomUUID(),
    team_id: randomUUID(),
    round_status: fields.round_status,
    duration_ms: fields.duration_ms,
    first_token_ms: fields.first_token_ms ?? 0,
    prompt_tokens: fields.prompt_tokens ?? 0,
    completion_tokens: fields.completion_tokens ?? 0,
    model: fields.model ?? '',
    started_at: new Date(fields.finished_at.getTime() - fields.duration_ms).toISOString(),
    finished_at: fields.finished_at.toISOString(),
  };
}

/** A workflow run (platform.events.v1.WorkflowRun, JSON). */
export function run(fields: {
  workflow_id: string;
  status: string;
  total_duration_ms: number;
  total_tokens?: number;
  finished_at: Date;
  nodes?: Array<{ node_type: string; status: string; duration_ms: number }>;
  id?: string;
}) {
  return {
    id: fields.id ?? randomUUID(),
    workflow_id: fields.workflow_id,
    user_id: randomUUID(),
    team_id: randomUUID(),
    status: fields.status,
    total_duration_ms: fields.total_duration_ms,
    total_tokens: fields.total_tokens ?? 0,
    started_at: new Date(fields.finished_at.getTime() - fields.total_duration_ms).toISOString(),
    finished_at: fields.status === 'running' ? '' : fields.finished_at.toISOString(),
    nodes: (fields.nodes ?? []).map((node, i) => ({ node_id: `n${i}`, ...node })),
  };
}
