import {
  LeaseLostError,
  type NodeOutcome,
  type RecordedNode,
  type RunContext,
  type RunJournal,
} from '../../src/domain/runs/engine/contract.js';
import { DEFAULT_RUN_LIMITS } from '../../src/domain/runs/engine/limits.js';

export type JournalEvent =
  | { type: 'node_started'; nodeId: string }
  | { type: 'node_finished'; nodeId: string; status: string }
  | { type: 'text_chunk'; nodeId: string; chunk: string };

/**
 * The engine's RunJournal kept in memory: our own interface (the Postgres one is the runs area's),
 * so unit tests can walk runs, pre-record finished nodes and lose the lease on demand.
 */
export class MemoryJournal implements RunJournal {
  readonly rows = new Map<string, RecordedNode>();
  readonly events: JournalEvent[] = [];
  readonly outcomes = new Map<string, NodeOutcome>();
  /** Set to make every later write fail as a worker whose lease was taken over. */
  leaseLost = false;

  constructor(
    private readonly runId = 'run-1',
    initial: RecordedNode[] = [],
  ) {
    for (const row of initial) this.rows.set(row.nodeId, row);
  }

  async recorded(): Promise<RecordedNode[]> {
    return [...this.rows.values()].map((row) => ({ ...row }));
  }

  async nodeStarted(node: { nodeId: string; nodeType: string; position: number }): Promise<void> {
    this.fence();
    const previous = this.rows.get(node.nodeId);
    const attempts = (previous ? (previous.attempts ?? 1) : 0) + 1;
    this.rows.set(node.nodeId, {
      ...node,
      status: 'running',
      outputs: null,
      branch: null,
      tokens: 0,
      attempts,
    });
    this.events.push({ type: 'node_started', nodeId: node.nodeId });
  }

  async nodeFinished(node: {
    nodeId: string;
    nodeType: string;
    position: number;
    outcome: NodeOutcome;
  }): Promise<void> {
    this.fence();
    const { outcome } = node;
    this.outcomes.set(node.nodeId, outcome);
    this.rows.set(node.nodeId, {
      nodeId: node.nodeId,
      nodeType: node.nodeType,
      position: node.position,
      status: outcome.status,
      outputs: outcome.outputs,
      branch: outcome.branch ?? null,
      tokens: outcome.tokens ?? 0,
      error: outcome.error ?? null,
    });
    this.events.push({ type: 'node_finished', nodeId: node.nodeId, status: outcome.status });
  }

  async nodeSkipped(node: { nodeId: string; nodeType: string; position: number }): Promise<void> {
    this.fence();
    this.rows.set(node.nodeId, { ...node, status: 'skipped', outputs: null, branch: null, tokens: 0 });
    this.events.push({ type: 'node_finished', nodeId: node.nodeId, status: 'skipped' });
  }

  async text(nodeId: string, chunk: string): Promise<void> {
    this.fence();
    this.events.push({ type: 'text_chunk', nodeId, chunk });
  }

  /** Node ids in the order they were started. */
  started(): string[] {
    return this.events.filter((event) => event.type === 'node_started').map((event) => event.nodeId);
  }

  statuses(): Record<string, string> {
    return Object.fromEntries([...this.rows.values()].map((row) => [row.nodeId, row.status]));
  }

  private fence(): void {
    if (this.leaseLost) throw new LeaseLostError(this.runId);
  }
}

export function runContext(overrides: Partial<RunContext> = {}): RunContext {
  return {
    runId: 'run-1',
    workflowId: 'wf-1',
    ownerId: 'user-1',
    teamId: 'team-1',
    userId: 'user-1',
    mode: 'production',
    inputs: {},
    deadline: new Date(Date.now() + 60_000),
    limits: DEFAULT_RUN_LIMITS,
    ...overrides,
  };
}
