import type { RunResult } from '@platform/sandbox';
import type { NodeModule, NodeOutcome } from '../engine/contract.js';
import { ByteMeter } from '../engine/limits.js';
import { renderValue, templateRootErrors } from '../engine/variables.js';
import { CODE_NODE_TYPE, codeTimeoutOf } from './code-rules.js';
import { nodeIdsOf } from './node-checks.js';
import { failed } from './node-failure.js';

/** One code node's task as the run worker hands it to a sandbox (adapters/sandbox-runner.ts). */
export interface CodeTask {
  runId: string;
  nodeId: string;
  code: string;
  inputs: Record<string, unknown>;
  timeoutMs: number;
  /** Bytes the inputs and the output may take as JSON (the run's node-output bound). */
  maxBytes: number;
}

export type CodeRunOutcome =
  | { kind: 'result'; result: RunResult; attempts: number; worker: string }
  | { kind: 'unavailable'; attempts: number; message: string };

/**
 * The port the code node runs through (implemented over the `sandbox` queue by
 * adapters/sandbox-runner.ts): it answers with the sandbox's result, or `unavailable` once no
 * sandbox worker answered in time, twice. `signal` aborts the wait (the node's or run's deadline).
 */
export interface CodeRunner {
  run(task: CodeTask, signal: AbortSignal): Promise<CodeRunOutcome>;
  /** The longest `run` may take for a node limit of `timeoutMs` (both attempts): the node's limit. */
  worstCaseMs(timeoutMs: number): number;
}

/** The sandbox's reasons as the node names them (`code_timeout`, …; docs/workflows.md "code"). */
const reasonOf = (reason: string) => `code_${reason}`;

function outcomeOf(outcome: CodeRunOutcome): NodeOutcome {
  if (outcome.kind === 'unavailable') {
    return failed('sandbox_unavailable', outcome.message, { attempts: outcome.attempts });
  }
  const { result } = outcome;
  const logs = { lines: result.logs.lines, truncated: result.logs.truncated };
  if (result.ok) return { status: 'success', outputs: result.output, logs };
  const failure = failed(reasonOf(result.reason), result.message);
  return { ...failure, status: result.reason === 'timeout' ? 'timeout' : 'failed', logs };
}

/**
 * `code` (docs/workflows.md "code"): renders `data.inputs` like the template node (a value that is
 * exactly one `{{path}}` keeps its JSON type; a missing one is null), runs `main(inputs)` of
 * `data.code` in a sandbox worker's V8 isolate, and outputs the object `main` returns
 * (`{{calc.sum}}`). What `console` printed is the node's `logs`. The definition rules
 * (code-rules.ts) were checked when the workflow was saved and when the run started.
 */
export function codeNode(deps: { runner?: CodeRunner }): NodeModule {
  return {
    type: CODE_NODE_TYPE,
    // No effect outside the run (the sandbox has no network, files or clock beyond the run): run
    // again after a crash it gives the same result, so its rows are held and written with the
    // run's next write, which keeps a Postgres round trip off every code node.
    instant: true,
    check: (node, definition) => templateRootErrors(node.data.inputs, nodeIdsOf(definition), 'data.inputs'),
    timeoutMs: (node) => {
      const timeoutMs = codeTimeoutOf(node.data);
      return deps.runner ? deps.runner.worstCaseMs(timeoutMs) : timeoutMs;
    },
    async execute({ node, variables, run, signal }) {
      if (!deps.runner) {
        return failed('sandbox_unavailable', 'this process has no sandbox client (PROCESS_ROLE=api)', {
          attempts: 0,
        });
      }
      // Every rendered input counts against one node-output bound, as an end node's outputs do.
      const limits = {
        maxValueBytes: run.limits.maxValueBytes,
        meter: new ByteMeter('node_output', run.limits.maxNodeOutputBytes),
      };
      const declared = (node.data.inputs ?? {}) as Record<string, string>;
      const inputs: Record<string, unknown> = {};
      for (const [name, template] of Object.entries(declared)) {
        inputs[name] = renderValue(template, variables, limits) ?? null;
      }
      const outcome = await deps.runner.run(
        {
          runId: run.runId,
          nodeId: node.id,
          code: node.data.code as string,
          inputs,
          timeoutMs: codeTimeoutOf(node.data),
          maxBytes: run.limits.maxNodeOutputBytes,
        },
        signal,
      );
      return outcomeOf(outcome);
    },
  };
}
