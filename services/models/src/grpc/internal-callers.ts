/**
 * models' internal-only methods and the services allowed to call each (checked against the
 * caller's service token by packages/grpc; docs/security.md). Anything else is refused 403.
 * `agent-runtime` is the agent runtime outside this repository (it signs its service tokens as
 * that name); `workflows` calls the same pair for LLM nodes.
 */
export const QUOTA_INTERNAL_CALLERS = {
  /** Before a model call. */
  authorizeModelUse: ['agent-runtime', 'workflows'],
  /** After a model call, with its tokens and requests. */
  recordModelUsage: ['agent-runtime', 'workflows'],
  /** The tokens rule of the admin observability API. */
  listModelUsage: ['observability'],
  getModelUsageTotals: ['observability'],
} as const satisfies Record<string, readonly string[]>;

/** ModelsService's internal method: an llm node's endpoint and decrypted key, for workflows only. */
export const MODELS_INTERNAL_CALLERS = {
  resolveModelEndpoint: ['workflows'],
} as const satisfies Record<string, readonly string[]>;
