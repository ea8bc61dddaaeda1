import {
  NOTIFICATION_LEVELS,
  NOTIFICATION_SCOPES,
  NOTIFICATION_SOURCES,
  type NotificationScopeName,
} from '@platform/contracts';

/**
 * The 25 automatic-notification types of the spec (Events) and whether each is enabled by
 * default: 19 are. An event whose type is not in `enabled_types` is dropped before anything is
 * created.
 */
export const AUTO_NOTIFICATION_TYPES = {
  'team.member_added': true,
  'team.member_removed': true,
  'team.role_changed': true,
  'team.ownership_transferred': true,
  'team.model_granted': true,
  'team.model_revoked': true,
  'user.activated': true,
  'user.deactivated': true,
  'user.password_reset': true,
  'user.pending_approval': true,
  'kb.doc_indexed': true,
  'kb.doc_failed': true,
  'workflow.run_failed': true,
  'workflow.pause_pending': true,
  'workflow.run_success': false,
  'agent.published': false,
  'agent.unpublished': false,
  'apikey.expiring': true,
  'apikey.expired': true,
  'security.login_anomaly': true,
  'security.account_locked': true,
  'security.password_changed': true,
  'password.expiring': false,
  'password.expired': false,
  'password.force_change': false,
} as const satisfies Record<string, boolean>;

export type AutoNotificationType = keyof typeof AUTO_NOTIFICATION_TYPES;

export const ALL_AUTO_TYPES = Object.keys(AUTO_NOTIFICATION_TYPES) as AutoNotificationType[];

export const DEFAULT_ENABLED_TYPES: AutoNotificationType[] = ALL_AUTO_TYPES.filter(
  (type) => AUTO_NOTIFICATION_TYPES[type],
);

export function isAutoNotificationType(value: string): value is AutoNotificationType {
  return Object.hasOwn(AUTO_NOTIFICATION_TYPES, value);
}

// The closed sets are the contract's (packages/contracts notifications-sets.ts).
export const SCOPES = NOTIFICATION_SCOPES.names;
export type Scope = NotificationScopeName;
export const LEVELS = NOTIFICATION_LEVELS.names;
export const SOURCES = NOTIFICATION_SOURCES.names;

/** `search` is a literal: regex characters in it match themselves. */
export function literalPattern(search: string): RegExp {
  return new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}
