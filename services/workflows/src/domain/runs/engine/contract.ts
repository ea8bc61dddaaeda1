import type { NodeStatusName, RunModeName, RunStatusName } from '@platform/contracts';
import type { DefinitionNode, WorkflowDefinition } from '../../definition-rules.js';
import type { RunLimits } from './limits.js';

/**
 * The contract between the run engine (graph walk + node modules, `domain/runs/engine/` and
 * `domain/runs/nodes/`) and the runs area that persists and schedules runs (`domain/runs/`,
 * `data/runs-*`, `events/run-worker.ts`). docs/workflows.md "Runs" describes the behaviour.
 */

/** A run's or a node's error as stored (`workflow_runs.error`, `workflow_node_executions.error`). */
export interface RunErrorValue {
  /** A catalog business code (6103 token quota, …) or 1003 (INTERNAL_ERROR) for an internal failure. */
  code: number;
  message: string;
  node_id?: string;
  data?: Record<string, unknown>;
}

/** The closed sets are the contract's (@platform/contracts workflow-sets.ts). */
export type RunMode = RunModeName;
export type RunStatus = RunStatusName;
export type NodeStatus = NodeStatusName;

/** What a node sees of the run it belongs to. */
export interface RunContext {
  runId: string;
  workflowId: string;
  ownerId: string;
  /**
   * The team model use is authorized and billed to: the workflow's team, or (a workflow without a
   * team) the site's default team every user belongs to, resolved at StartRun and stored on the run.
   */
  teamId: string;
  /** Who started it (the key's owner for an API key). */
  userId: string;
  mode: RunMode;
  inputs: Record<string, unknown>;
  /** The run's deadline (started_at + timeout_seconds). */
  deadline: Date;
  /** What the run may hold (bytes, resumes); nodes render and download within them. */
  limits: RunLimits;
}

export interface NodeRunInput {
  node: DefinitionNode;
  /**
   * What `{{…}}` can read: `inputs` (the run's inputs) and each finished node's outputs under its
   * node id (`{{inputs.city}}`, `{{fetch.body}}`).
   */
  variables: Record<string, unknown>;
  run: RunContext;
  /** `<run_id>:<node_id>`: the same on a retry after a crash (http_request sends it as Idempotency-Key). */
  idempotencyKey: string;
  /** Aborted when the node's or the run's timeout passes. */
  signal: AbortSignal;
  /** Streams a piece of generated text (a `text_chunk` event). */
  emitText(chunk: string): Promise<void>;
}

export interface NodeOutcome {
  status: 'success' | 'failed' | 'timeout';
  outputs: Record<string, unknown>;
  /** A condition node: the source handle of the branch it took (the other branches are skipped). */
  branch?: string;
  error?: RunErrorValue;
  tokens?: number;
  /** The model id an llm node used. */
  model?: string;
  /** What a code node's `console` printed (bounded by the sandbox); stored on its row and event. */
  logs?: NodeLogs;
}

/** Captured console output of a code node: the first lines, and whether the caps cut the rest. */
export interface NodeLogs {
  lines: { level: string; text: string }[];
  truncated: boolean;
}

export interface NodeModule {
  readonly type: string;
  /**
   * True for a node with no effect outside the run (start, end, template, condition): running it
   * again after a crash is harmless, so the journal may hold its rows back and write them with
   * the run's next write (data/run-journal.ts). Nodes that call out (http_request, llm) leave it
   * unset: their `running` row is written before they start, for the resume rules.
   */
  readonly instant?: boolean;
  /** Why this node cannot run (empty = runnable); checked at StartRun (400 / 1002 naming the node). */
  check(node: DefinitionNode, definition: WorkflowDefinition): string[];
  /** The node's own time limit in ms (http_request, llm); undefined = only the run's. */
  timeoutMs?(node: DefinitionNode): number | undefined;
  execute(input: NodeRunInput): Promise<NodeOutcome>;
}

/** The node set by type (`nodes/index.ts` `createNodeModules`). */
export type NodeModules = ReadonlyMap<string, NodeModule>;

/** One node's row as recorded so far (resume reads these). */
export interface RecordedNode {
  nodeId: string;
  nodeType: string;
  position: number;
  status: NodeStatus;
  outputs: Record<string, unknown> | null;
  branch: string | null;
  tokens: number;
  /** A failed or timed-out node's error (optional: the engine falls back to a generic one). */
  error?: RunErrorValue | null;
  /** How many times the node was started (a `running` node: 1 + the resumes so far). */
  attempts?: number;
}

/** A node that ran to an outcome, as the journal records it. */
export interface FinishedNode {
  nodeId: string;
  nodeType: string;
  position: number;
  outcome: NodeOutcome;
  startedAt: Date;
  durationMs: number;
}

/**
 * What the engine needs persisted, implemented over Postgres by the runs area. Every write is
 * fenced on the worker's lease (a worker that lost it gets `LeaseLostError` and stops), and each
 * write appends the matching event to the run's log in the same transaction.
 */
export interface RunJournal {
  /** Node rows recorded so far: finished ones never run again; a `running` one was in flight. */
  recorded(): Promise<RecordedNode[]>;
  /** Inserts (or, on a retry, re-marks) the node `running` + a `node_started` event. */
  nodeStarted(node: { nodeId: string; nodeType: string; position: number; startedAt: Date }): Promise<void>;
  /** The node's final row + a `node_finished` event. */
  nodeFinished(node: FinishedNode): Promise<void>;
  /** A node on an untaken branch: a `skipped` row + a `node_finished` event with status skipped. */
  nodeSkipped(node: { nodeId: string; nodeType: string; position: number }): Promise<void>;
  /** A `text_chunk` event. */
  text(nodeId: string, chunk: string): Promise<void>;
}

/** Thrown by a journal write of a worker whose lease another worker took over. */
/**
 * The worker drains (SIGTERM): the engine starts no further node that calls out, so the run is
 * handed back to another worker after the node in flight (domain/runs/run-executor.ts `beginDrain`).
 */
export class WorkerDrainingError extends Error {
  constructor() {
    super('the worker is draining: the run is handed back');
    this.name = 'WorkerDrainingError';
  }
}

export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`lease of run ${runId} was lost`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Thrown by a journal write whose data the store refuses as data (Postgres class 22: a NUL
 * character in text, say). It is the node's failure, not the infrastructure's: retrying the run
 * would only repeat the node's side effects and fail the same way.
 */
export class OutputNotStorableError extends Error {
  constructor(readonly detail: string) {
    super(`the node's result cannot be stored: ${detail}`);
    this.name = 'OutputNotStorableError';
  }
}

export interface RunOutcome {
  status: 'success' | 'failed' | 'timeout';
  /** The end node's outputs on success. */
  outputs?: Record<string, unknown>;
  error?: RunErrorValue;
  totalTokens: number;
}
