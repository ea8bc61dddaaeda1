import { closedSet } from './closed-set.js';
import { ApprovalStatus, PasswordChangeReason, TeamRole } from './gen/platform/identity/v1/enums.js';
import { VerificationPurpose } from './gen/platform/identity/v1/verification.js';

/**
 * The identity API's closed sets: the names JSON carries beside the proto enum values (one table
 * each). The gateway's schemas use `.names`, the identity handlers `toProto` / `fromProto`.
 */

/** Whether an administrator let an account in. */
export const APPROVAL_STATUSES = closedSet([
  ['pending', ApprovalStatus.APPROVAL_STATUS_PENDING],
  ['approved', ApprovalStatus.APPROVAL_STATUS_APPROVED],
] as const);

/** A member's role in a team, highest first (the order `@platform/rbac` ranks by). */
export const TEAM_ROLE_SET = closedSet([
  ['OWNER', TeamRole.TEAM_ROLE_OWNER],
  ['ADMIN', TeamRole.TEAM_ROLE_ADMIN],
  ['MEMBER', TeamRole.TEAM_ROLE_MEMBER],
] as const);
export type TeamRoleName = (typeof TEAM_ROLE_SET.names)[number];

/** Why a session must change its password first. */
export const PASSWORD_CHANGE_REASONS = closedSet([
  ['expired', PasswordChangeReason.PASSWORD_CHANGE_REASON_EXPIRED],
  ['force', PasswordChangeReason.PASSWORD_CHANGE_REASON_FORCE],
] as const);

/** What a mailed code or link proves. */
export const VERIFICATION_PURPOSES = closedSet([
  ['register', VerificationPurpose.VERIFICATION_PURPOSE_REGISTER],
  ['reset_password', VerificationPurpose.VERIFICATION_PURPOSE_RESET_PASSWORD],
] as const);
export type VerificationPurposeName = (typeof VERIFICATION_PURPOSES.names)[number];
