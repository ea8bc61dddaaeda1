import {
  APPROVAL_STATUSES,
  PASSWORD_CHANGE_REASONS,
  TEAM_ROLE_SET,
  VERIFICATION_PURPOSES,
} from '@platform/contracts';
import type { VerificationPurposeName } from '@platform/contracts';
import type * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import { TeamRole } from '@platform/contracts/platform/identity/v1/enums';
import type { VerificationPurpose } from '@platform/contracts/platform/identity/v1/verification';
import { BusinessError } from '@platform/errors';
import type { TeamRole as TeamRoleName } from '@platform/rbac';
import type { AccountView } from '../domain/auth/account-view.js';
import type { LoginOutcome } from '../domain/auth/complete-login.js';
import type { IssuedSession } from '../domain/auth/issue-session.js';

/**
 * The identity handlers' translations between proto messages and the use cases' values: closed
 * sets by their names inside the service, by their enum values on the wire.
 */

/** A role a request names; unspecified (or a value this build does not know) is refused as 1001. */
export function requestedTeamRole(value: TeamRole): TeamRoleName {
  const role = TEAM_ROLE_SET.fromProto(value);
  if (!role) {
    throw BusinessError.validation(
      { role: [`must be one of ${TEAM_ROLE_SET.names.join(', ')}`] },
      { httpStatus: 400 },
    );
  }
  return role;
}

/** A member's role as the messages carry it; not a member (no role) is unspecified. */
export function teamRoleMessage(role: TeamRoleName | '' | null | undefined): TeamRole {
  return role ? TEAM_ROLE_SET.toProto(role) : TeamRole.TEAM_ROLE_UNSPECIFIED;
}

/** Replaces the `role` / `my_role` names of a use case's record by their enum values. */
export function withTeamRole<T extends { role: TeamRoleName }>(
  record: T,
): Omit<T, 'role'> & { role: TeamRole } {
  return { ...record, role: teamRoleMessage(record.role) };
}

export function withMyRole<T extends { my_role: TeamRoleName | null }>(
  record: T,
): Omit<T, 'my_role'> & { my_role: TeamRole } {
  return { ...record, my_role: teamRoleMessage(record.my_role) };
}

/** Unspecified purposes are `register`, as a direct caller that named none always got. */
export function requestedPurpose(value: VerificationPurpose): VerificationPurposeName {
  return VERIFICATION_PURPOSES.fromProto(value) ?? 'register';
}

export function withPurpose<T extends { purpose: VerificationPurposeName }>(
  answer: T,
): Omit<T, 'purpose'> & { purpose: VerificationPurpose } {
  return { ...answer, purpose: VERIFICATION_PURPOSES.toProto(answer.purpose) };
}

export function withApprovalStatus<T extends { approval_status: 'pending' | 'approved' }>(record: T) {
  return { ...record, approval_status: APPROVAL_STATUSES.toProto(record.approval_status) };
}

export function accountMessage(account: AccountView): authV1.AccountUser {
  return withApprovalStatus(account);
}

export function sessionMessage(session: IssuedSession): authV1.Session {
  return {
    access_token: session.access_token,
    password_change_reason: session.reason ? PASSWORD_CHANGE_REASONS.toProto(session.reason) : 0,
  };
}

export function loginResultMessage(outcome: LoginOutcome): authV1.LoginResult {
  switch (outcome.kind) {
    case 'session':
      return { session: sessionMessage(outcome.session) };
    case 'totp_required':
      return { totp_required: { temp_token: outcome.tempToken } };
    case 'totp_setup_required':
      return { totp_setup_required: { temp_token: outcome.tempToken } };
  }
}
