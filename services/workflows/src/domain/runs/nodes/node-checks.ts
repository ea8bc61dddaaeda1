import type { WorkflowDefinition } from '../../definition-rules.js';

/** The ids of a definition's nodes (what `{{<node_id>.…}}` may name). */
export function nodeIdsOf(definition: WorkflowDefinition): Set<string> {
  return new Set(definition.nodes.map((node) => node.id));
}

/** A positive integer field up to `max` (absent is fine). */
export function intProblems(value: unknown, field: string, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    return [`${field} must be an integer from 1 to ${max}`];
  }
  return [];
}
