import { closedSet } from './closed-set.js';
import {
  ApiKeyAuditAction as AuditActionValue,
  ApiKeyScope as ApiKeyScopeValue,
  ApiKeyStatus as ApiKeyStatusValue,
} from './gen/platform/apikeys/v1/apikeys.js';

/** The spec's scope values (JSON names ↔ `ApiKeyScope`); a key carries a non-empty subset. */
export const API_KEY_SCOPES = closedSet([
  ['chat', ApiKeyScopeValue.API_KEY_SCOPE_CHAT],
  ['agent:read', ApiKeyScopeValue.API_KEY_SCOPE_AGENT_READ],
  ['workflow:execute', ApiKeyScopeValue.API_KEY_SCOPE_WORKFLOW_EXECUTE],
  ['knowledge:read', ApiKeyScopeValue.API_KEY_SCOPE_KNOWLEDGE_READ],
] as const);

/** A key's state as the list filter names it (JSON names ↔ `ApiKeyStatus`). */
export const API_KEY_STATUSES = closedSet([
  ['active', ApiKeyStatusValue.API_KEY_STATUS_ACTIVE],
  ['inactive', ApiKeyStatusValue.API_KEY_STATUS_INACTIVE],
  ['expired', ApiKeyStatusValue.API_KEY_STATUS_EXPIRED],
] as const);
export type ApiKeyStatusName = (typeof API_KEY_STATUSES.names)[number];

/** What an audited key change was; the audit table stores the names. */
export const API_KEY_AUDIT_ACTIONS = closedSet([
  ['api_key.create', AuditActionValue.API_KEY_AUDIT_ACTION_CREATE],
  ['api_key.update', AuditActionValue.API_KEY_AUDIT_ACTION_UPDATE],
  ['api_key.activate', AuditActionValue.API_KEY_AUDIT_ACTION_ACTIVATE],
  ['api_key.deactivate', AuditActionValue.API_KEY_AUDIT_ACTION_DEACTIVATE],
  ['api_key.delete', AuditActionValue.API_KEY_AUDIT_ACTION_DELETE],
] as const);
export type ApiKeyAuditActionName = (typeof API_KEY_AUDIT_ACTIONS.names)[number];

/**
 * The API-key contract's values beside apikeys.proto (proto3 has no constants): the gateway
 * validates HTTP bodies against them and the apikeys service re-checks calls that bypass the edge.
 */
export const API_KEY_RULES = {
  /** The scope names (API_KEY_SCOPES). */
  scopes: API_KEY_SCOPES.names,
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
