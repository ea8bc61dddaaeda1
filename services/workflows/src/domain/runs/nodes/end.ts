import type { NodeModule } from '../engine/contract.js';
import { ByteMeter } from '../engine/limits.js';
import { renderValue, templateRootErrors } from '../engine/variables.js';
import { nodeIdsOf } from './node-checks.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `end`: the run's outputs, `data.outputs: [{name, value}]`. A value that is exactly `{{path}}`
 * keeps the variable's type; any other text is rendered as a template.
 */
export const endNode: NodeModule = {
  type: 'end',
  instant: true,
  check(node, definition) {
    const outputs = node.data.outputs;
    if (outputs === undefined) return [];
    if (!Array.isArray(outputs)) return ['data.outputs must be an array'];
    const ids = nodeIdsOf(definition);
    const names = new Set<string>();
    return outputs.flatMap((output: unknown, index) => {
      const at = `data.outputs.${index}`;
      if (!isRecord(output)) return [`${at} must be an object`];
      const problems: string[] = [];
      if (typeof output.name !== 'string' || output.name.length === 0 || output.name.length > 100) {
        problems.push(`${at}.name must be a string of 1-100 characters`);
      } else if (names.has(output.name)) problems.push(`${at}.name "${output.name}" is declared twice`);
      else names.add(output.name);
      return [...problems, ...templateRootErrors(output.value, ids, `${at}.value`)];
    });
  },
  async execute({ node, variables, run }) {
    const declared = Array.isArray(node.data.outputs)
      ? (node.data.outputs as { name: string; value: unknown }[])
      : [];
    const outputs: Record<string, unknown> = {};
    // One meter over every output: many outputs naming one large value would otherwise add up.
    const limits = {
      maxValueBytes: run.limits.maxValueBytes,
      meter: new ByteMeter('node_output', run.limits.maxNodeOutputBytes),
    };
    for (const output of declared)
      outputs[output.name] = renderValue(output.value ?? '', variables, limits) ?? null;
    return { status: 'success', outputs };
  },
};
