import type { Resolver } from '@platform/outbound-http';
import type { CodeRunner } from './code.js';
import type { ModelGateway } from './llm.js';

// The node set's ports: adapters/ (models client, sandbox runner, node dependencies) implement
// these and import nothing else of the domain.
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
