import type { DefinitionEdge, WorkflowDefinition } from '../../definition-rules.js';

interface DefinitionIndex {
  nodeIds: ReadonlySet<string>;
  outgoing: ReadonlyMap<string, DefinitionEdge[]>;
}

// Built once per definition and shared by every node's check: planning stays O(nodes + edges)
// instead of each check walking the whole graph again.
const indexes = new WeakMap<WorkflowDefinition, DefinitionIndex>();

function indexOf(definition: WorkflowDefinition): DefinitionIndex {
  let index = indexes.get(definition);
  if (!index) {
    const outgoing = new Map<string, DefinitionEdge[]>();
    for (const edge of definition.edges) {
      const list = outgoing.get(edge.source);
      if (list) list.push(edge);
      else outgoing.set(edge.source, [edge]);
    }
    index = { nodeIds: new Set(definition.nodes.map((node) => node.id)), outgoing };
    indexes.set(definition, index);
  }
  return index;
}

/** The ids of a definition's nodes (what `{{<node_id>.…}}` may name). */
export function nodeIdsOf(definition: WorkflowDefinition): ReadonlySet<string> {
  return indexOf(definition).nodeIds;
}

/** The edges leaving `nodeId`. */
export function edgesFrom(definition: WorkflowDefinition, nodeId: string): readonly DefinitionEdge[] {
  return indexOf(definition).outgoing.get(nodeId) ?? [];
}

/** A positive integer field up to `max` (absent is fine). */
export function intProblems(value: unknown, field: string, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    return [`${field} must be an integer from 1 to ${max}`];
  }
  return [];
}
