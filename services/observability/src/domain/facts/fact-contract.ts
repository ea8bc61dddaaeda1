// The facts as the data layer stores them (the rollups' source and metric columns, the hour a fact
// counts in); fact-rules.ts builds them from the events. data/ reads these shapes, no use case.
/** source column of the rollups. */
export const SOURCE = { agent: 1, workflow: 2 } as const;
/** metric column of the histograms. */
export const METRIC = { latency: 1, ttft: 2 } as const;

export interface AgentRoundFact {
  id: string;
  agentId: string;
  userId: string;
  teamId: string;
  status: string;
  durationMs: number;
  /** null: no first token reported. */
  firstTokenMs: number | null;
  promptTokens: number;
  completionTokens: number;
  model: string;
  startedAt: Date | null;
  finishedAt: Date;
}

export interface NodeFact {
  nodeType: string;
  failed: boolean;
  durationMs: number;
}

export interface WorkflowRunFact {
  id: string;
  workflowId: string;
  userId: string;
  teamId: string;
  status: string;
  totalDurationMs: number;
  totalTokens: number;
  startedAt: Date | null;
  /** finished_at of a final run; started_at (else the broker time) while running. */
  finishedAt: Date;
  nodes: NodeFact[];
}

/** Start of the UTC hour. */
export function hourOf(date: Date): string {
  const hour = new Date(date.getTime());
  hour.setUTCMinutes(0, 0, 0);
  return hour.toISOString();
}
