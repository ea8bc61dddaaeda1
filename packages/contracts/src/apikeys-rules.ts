/**
 * The API-key contract's values beside apikeys.proto (proto3 has no constants): the gateway
 * validates HTTP bodies against them and the apikeys service re-checks calls that bypass the edge.
 */
export const API_KEY_RULES = {
  /** The spec's scope values; a key carries a non-empty subset. */
  scopes: ['chat', 'agent:read', 'workflow:execute', 'knowledge:read'],
  /** Scopes of a key created without any. */
  defaultScopes: ['chat'],
  /** Requests per minute recorded for a key created without one (metadata only, never enforced). */
  defaultRateLimit: 1000,
  /** Bindings per kind (agents, workflows) on one key. */
  maxBindings: 100,
} as const;

export type ApiKeyScope = (typeof API_KEY_RULES.scopes)[number];
