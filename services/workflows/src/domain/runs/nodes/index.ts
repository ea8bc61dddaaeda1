import type { NodeModule, NodeModules } from '../engine/contract.js';
import { codeNode } from './code.js';
import { conditionNode } from './condition.js';
import { endNode } from './end.js';
import { httpRequestNode } from './http-request.js';
import { llmNode } from './llm.js';
import type { NodeDependencies } from './node-ports.js';
import { startNode } from './start.js';
import { templateNode } from './template.js';

export type { ModelEndpoint, ModelGateway } from './llm.js';
export type { CodeRunner, CodeRunOutcome, CodeTask } from './code.js';
export type { NodeDependencies } from './node-ports.js';

/**
 * The node set by type (docs/workflows.md "Node reference"). Without `models` the `llm` type is
 * not registered: a definition using it is refused at StartRun as an unknown node type.
 */
export function createNodeModules(deps: NodeDependencies = {}): NodeModules {
  const modules: NodeModule[] = [
    startNode,
    endNode,
    templateNode,
    conditionNode,
    codeNode(deps.codeRunner ? { runner: deps.codeRunner } : {}),
    httpRequestNode({
      ...(deps.httpAllowlist ? { httpAllowlist: deps.httpAllowlist } : {}),
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    }),
  ];
  if (deps.models) {
    modules.push(
      llmNode({
        models: deps.models,
        modelAllowlist: deps.modelAllowlist ?? (async () => []),
        ...(deps.resolve ? { resolve: deps.resolve } : {}),
      }),
    );
  }
  return new Map(modules.map((module) => [module.type, module]));
}
