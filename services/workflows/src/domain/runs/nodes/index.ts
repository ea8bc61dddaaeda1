import type { Resolver } from '@platform/outbound-http';
import type { NodeModule, NodeModules } from '../engine/contract.js';
import { codeNode, type CodeRunner } from './code.js';
import { conditionNode } from './condition.js';
import { endNode } from './end.js';
import { httpRequestNode } from './http-request.js';
import { llmNode, type ModelGateway } from './llm.js';
import { startNode } from './start.js';
import { templateNode } from './template.js';

export type { ModelEndpoint, ModelGateway } from './llm.js';
export type { CodeRunner, CodeRunOutcome, CodeTask } from './code.js';

/**
 * What the node set needs from outside the engine (adapters/node-dependencies.ts builds it).
 * Every field is optional so callers stay valid as nodes are added.
 */
export interface NodeDependencies {
  /** `workflow_http_allowlist` (identity site setting); none = only public addresses. */
  httpAllowlist?: () => Promise<readonly string[]>;
  /** models' AuthorizeModelUse / ResolveModelEndpoint / RecordModelUsage; without it no `llm`. */
  models?: ModelGateway;
  /** `model_endpoint_allowlist` (identity site setting) for llm calls; none = nothing allowed. */
  modelAllowlist?: () => Promise<readonly string[]>;
  /** DNS for http_request and llm (tests play host names); the system resolver by default. */
  resolve?: Resolver;
  /**
   * Runs code nodes in the sandbox workers (the `sandbox` queue); none on a process without a run
   * worker, where `code` is still known (StartRun plans it) but never executed.
   */
  codeRunner?: CodeRunner;
}

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
