/**
 * The API-key contract's values beside apikeys.proto (proto3 has no constants): the gateway
 * validates HTTP bodies against them and the apikeys service re-checks calls that bypass the edge.
 */

/** The spec's scope values; a key carries a non-empty subset. */
export const API_KEY_SCOPES = ['chat', 'agent:read', 'workflow:execute', 'knowledge:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Scopes of a key created without any. */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = ['chat'];

/** Requests per minute recorded for a key created without one (metadata only, never enforced). */
export const DEFAULT_API_KEY_RATE_LIMIT = 1000;

/** Bindings per kind (agents, workflows) on one key. */
export const MAX_API_KEY_BINDINGS = 100;
