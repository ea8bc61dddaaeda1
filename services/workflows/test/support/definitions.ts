import type { DefinitionEdge, DefinitionNode } from '../../src/domain/definition-rules.js';

/** Small builders for run definitions in tests. */
export const node = (id: string, type: string, data: Record<string, unknown> = {}): DefinitionNode => ({
  id,
  type,
  data,
});

export const edge = (source: string, target: string, sourceHandle?: string): DefinitionEdge => ({
  id: `${source}->${target}${sourceHandle ? `:${sourceHandle}` : ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

export const definition = (
  nodes: DefinitionNode[],
  edges: DefinitionEdge[],
  metadata?: Record<string, unknown>,
) => ({ schema_version: 2, nodes, edges, ...(metadata ? { metadata } : {}) });

/** start → template → end, the smallest useful run. */
export const linear = () =>
  definition(
    [
      node('start', 'start', { inputs: [{ name: 'name', type: 'string', required: true }] }),
      node('greet', 'template', { template: 'Hello {{inputs.name}}' }),
      node('end', 'end', { outputs: [{ name: 'greeting', value: '{{greet.text}}' }] }),
    ],
    [edge('start', 'greet'), edge('greet', 'end')],
  );
