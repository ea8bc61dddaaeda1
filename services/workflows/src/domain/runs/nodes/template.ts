import type { NodeModule } from '../engine/contract.js';
import { renderText, templateRootErrors } from '../engine/variables.js';
import { nodeIdsOf } from './node-checks.js';

const MAX_TEMPLATE = 100_000;

/** `template`: renders `data.template` (`{{inputs.name}}`, `{{node.output}}`); output `{text}`. */
export const templateNode: NodeModule = {
  type: 'template',
  instant: true,
  check(node, definition) {
    const template = node.data.template;
    if (typeof template !== 'string') return ['data.template must be a string'];
    if (template.length > MAX_TEMPLATE) return [`data.template must be at most ${MAX_TEMPLATE} characters`];
    return templateRootErrors(template, nodeIdsOf(definition), 'data.template');
  },
  execute: async ({ node, variables, run }) => ({
    status: 'success',
    // Checked piece by piece: an amplifying template fails before its text is built.
    outputs: { text: renderText(node.data.template as string, variables, run.limits) },
  }),
};
