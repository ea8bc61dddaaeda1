import type { NodeModule } from '../engine/contract.js';
import { resolveInputs, startInputProblems } from '../engine/inputs.js';

/**
 * `start`: declares the run's inputs (`data.inputs: [{name, type, required?, default?}]`); its
 * outputs are the inputs with defaults filled in. Missing or mistyped inputs are refused at
 * StartRun (422 / 1001, `inputErrors`), so running never fails.
 */
export const startNode: NodeModule = {
  type: 'start',
  instant: true,
  check: (node) => startInputProblems(node),
  execute: async ({ node, run }) => ({ status: 'success', outputs: resolveInputs(node, run.inputs) }),
};
