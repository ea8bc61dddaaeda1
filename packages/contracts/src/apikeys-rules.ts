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
  /**
   * The owner permissions a key can act with (issue 20): a key never holds more than its owner at
   * the request, and its principal carries, of these, the ones the owner holds right then
   * (`owner_permissions`) so a service can tell what the owner's own view would be. A new key route
   * whose `apiKeyPermission` is not listed here refuses every key (fail closed).
   */
  ownerPermissions: ['workflow:execute', 'workflow:read'],
} as const;

export type ApiKeyScope = (typeof API_KEY_RULES.scopes)[number];
