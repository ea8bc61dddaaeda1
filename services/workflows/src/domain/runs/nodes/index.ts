import type { NodeModule, NodeModules } from '../engine/contract.js';
import { conditionNode } from './condition.js';
import { endNode } from './end.js';
import { startNode } from './start.js';
import { templateNode } from './template.js';

/**
 * What the node set needs from outside the engine. Every field is optional so callers stay valid as
 * nodes are added; a node whose dependency is missing is not registered (its type is then
 * "unknown", 400 / 1002 at StartRun).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NodeDependencies {}

/** The node set by type (docs/workflows.md "Node reference"). */
export function createNodeModules(_deps: NodeDependencies = {}): NodeModules {
  const modules: NodeModule[] = [startNode, endNode, templateNode, conditionNode];
  return new Map(modules.map((module) => [module.type, module]));
}
