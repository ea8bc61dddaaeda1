import { ErrorCode, isBusinessError } from '@platform/errors';
import type { DefinitionNode } from '../../definition-rules.js';
import {
  LeaseLostError,
  OutputNotStorableError,
  type NodeModule,
  type NodeOutcome,
  type NodeRunInput,
  type RunJournal,
} from './contract.js';
import { ByteMeter, OutputTooLargeError, jsonBytes } from './limits.js';

export interface NodeRun {
  outcome: NodeOutcome;
  /** The run's deadline passed while the node ran (the run ends `timeout`, not `failed`). */
  runTimedOut: boolean;
}

const MAX_TIMER_MS = 2_147_483_647;
/** A stored error message is for people: longer ones (a rendered URL, an upstream's body) are cut. */
const MAX_ERROR_MESSAGE = 2_000;

/** Raised inside a node when its signal aborts; never escapes `runNode`. */
class NodeAborted extends Error {}

export function nodeError(
  node: DefinitionNode,
  code: number,
  message: string,
  data?: Record<string, unknown>,
) {
  return { code, message: boundedMessage(message), node_id: node.id, ...(data ? { data } : {}) };
}

const boundedMessage = (message: string) =>
  message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE)}…` : message;

/** A node whose outputs passed a size bound: failed, nothing of them kept (docs/workflows.md). */
export function outputTooLargeOutcome(error: OutputTooLargeError): NodeOutcome {
  return {
    status: 'failed',
    outputs: {},
    error: {
      code: ErrorCode.BAD_REQUEST,
      message: error.message,
      data: { reason: 'output_too_large', scope: error.scope, limit: error.limit },
    },
  };
}

/** A node whose result the journal refused as data (a NUL character…): failed, nothing kept. */
export function notStorableOutcome(node: DefinitionNode, error: OutputNotStorableError): NodeOutcome {
  return {
    status: 'failed',
    outputs: {},
    error: nodeError(node, ErrorCode.BAD_REQUEST, error.message, { reason: 'output_not_storable' }),
  };
}

/** The outcome of a run whose deadline passed (before or while `node` ran). */
export function runTimeoutOutcome(node: DefinitionNode, deadline: Date): NodeOutcome {
  return {
    status: 'timeout',
    outputs: {},
    error: nodeError(node, ErrorCode.BAD_REQUEST, `the run passed its deadline ${deadline.toISOString()}`, {
      reason: 'run_timeout',
    }),
  };
}

/**
 * Runs one node under its own time limit and the run's deadline. A module that ignores its signal
 * is not waited for: the timeout decides. A module's exception becomes a `failed` outcome (a
 * BusinessError keeps its code), except `LeaseLostError` (also from `emitText`) and the worker's
 * own abort (`signal`), which propagate so the node stays `running` for the next worker. What the
 * node streams and returns is charged to its own bound and the run's `budget`: past either, the
 * node fails `output_too_large` (the stream is stopped at once, the outputs are not kept).
 */
export async function runNode(args: {
  module: NodeModule;
  node: DefinitionNode;
  input: Omit<NodeRunInput, 'signal' | 'emitText'>;
  journal: RunJournal;
  signal: AbortSignal;
  now: () => Date;
  budget: ByteMeter;
}): Promise<NodeRun> {
  const { module, node, journal, signal, budget } = args;
  const { limits } = args.input.run;
  const controller = new AbortController();
  let cause: 'node' | 'run' | 'worker' | 'lease' | 'size' | undefined;
  let leaseLost: unknown;
  let stopped: OutputTooLargeError | OutputNotStorableError | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(new NodeAborted()), { once: true });
  });
  const abort = (why: NonNullable<typeof cause>) => {
    if (cause) return;
    cause = why;
    controller.abort(new NodeAborted(why));
  };
  const nodeMs = module.timeoutMs?.(node);
  // setTimeout fires at once past 2^31-1 ms; a run's deadline is at most an hour away anyway.
  const untilDeadline = Math.min(
    MAX_TIMER_MS,
    Math.max(0, args.input.run.deadline.getTime() - args.now().getTime()),
  );
  const timers = [setTimeout(() => abort('run'), untilDeadline)];
  if (nodeMs !== undefined) timers.push(setTimeout(() => abort('node'), nodeMs));
  const onWorkerAbort = () => abort('worker');
  signal.addEventListener('abort', onWorkerAbort, { once: true });
  if (signal.aborted) abort('worker');
  let closed = false;
  const streamed = new ByteMeter('node_output', limits.maxNodeOutputBytes);
  const emitText = async (chunk: string): Promise<void> => {
    if (closed) return;
    try {
      const bytes = Buffer.byteLength(chunk, 'utf8');
      streamed.charge(bytes);
      budget.charge(bytes);
      await journal.text(node.id, chunk);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        leaseLost = error;
        abort('lease');
      } else if (error instanceof OutputTooLargeError || error instanceof OutputNotStorableError) {
        stopped ??= error;
        abort('size');
      }
      throw error;
    }
  };

  let outcome: NodeOutcome | undefined;
  let failure: unknown;
  try {
    outcome = await Promise.race([
      module.execute({ ...args.input, signal: controller.signal, emitText }),
      aborted,
    ]);
  } catch (error) {
    failure = error;
  } finally {
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    signal.removeEventListener('abort', onWorkerAbort);
  }
  if (leaseLost !== undefined) throw leaseLost;
  if (failure instanceof LeaseLostError) throw failure;
  if (cause === 'worker') throw signal.reason ?? new Error('the worker stopped the run');
  if (cause === 'run')
    return { outcome: runTimeoutOutcome(node, args.input.run.deadline), runTimedOut: true };
  if (cause === 'node') {
    const error = nodeError(node, ErrorCode.BAD_REQUEST, `the node passed its time limit of ${nodeMs} ms`, {
      reason: 'node_timeout',
    });
    return { outcome: { status: 'timeout', outputs: {}, error }, runTimedOut: false };
  }
  const settled = stopped ?? failure;
  return {
    outcome: withNodeId(outcomeOf(node, outcome, settled, limits.maxNodeOutputBytes, budget), node),
    runTimedOut: false,
  };
}

/** What the node ended with: its outcome within the size bounds, or its failure as an outcome. */
function outcomeOf(
  node: DefinitionNode,
  outcome: NodeOutcome | undefined,
  failure: unknown,
  maxNodeOutputBytes: number,
  budget: ByteMeter,
): NodeOutcome {
  if (failure instanceof OutputTooLargeError) return outputTooLargeOutcome(failure);
  if (failure instanceof OutputNotStorableError) return notStorableOutcome(node, failure);
  if (outcome) {
    try {
      const bytes = jsonBytes(outcome.outputs);
      if (bytes > maxNodeOutputBytes) throw new OutputTooLargeError('node_output', maxNodeOutputBytes);
      budget.charge(bytes);
      return outcome;
    } catch (error) {
      if (error instanceof OutputTooLargeError) return outputTooLargeOutcome(error);
      throw error;
    }
  }
  if (isBusinessError(failure)) {
    const data = { ...(failure.data ?? {}) } as Record<string, unknown>;
    return { status: 'failed', outputs: {}, error: nodeError(node, failure.code, failure.message, data) };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return {
    status: 'failed',
    outputs: {},
    error: nodeError(node, ErrorCode.INTERNAL_ERROR, message, { reason: 'node_error' }),
  };
}

function withNodeId(outcome: NodeOutcome, node: DefinitionNode): NodeOutcome {
  if (outcome.status === 'success') return outcome;
  const error =
    outcome.error ?? nodeError(node, ErrorCode.INTERNAL_ERROR, `the node ended ${outcome.status}`);
  return { ...outcome, error: { ...error, message: boundedMessage(error.message), node_id: node.id } };
}
