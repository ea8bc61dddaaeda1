import { describe, expect, it } from 'vitest';
import { API_KEY_AUDIT_ACTIONS, API_KEY_SCOPES, API_KEY_STATUSES } from '../src/apikeys-rules.js';
import { ApiKeyAuditAction, ApiKeyScope, ApiKeyStatus } from '../src/gen/platform/apikeys/v1/apikeys.js';
import { ApprovalStatus, PasswordChangeReason, TeamRole } from '../src/gen/platform/identity/v1/enums.js';
import { VerificationPurpose } from '../src/gen/platform/identity/v1/verification.js';
import {
  APPROVAL_STATUSES,
  PASSWORD_CHANGE_REASONS,
  TEAM_ROLE_SET,
  VERIFICATION_PURPOSES,
} from '../src/identity-closed-sets.js';
import { expectNamesEveryValue, type EnumTable } from './support/enum-coverage.js';

const tables: EnumTable[] = [
  ['API_KEY_SCOPES', API_KEY_SCOPES, ApiKeyScope],
  ['API_KEY_STATUSES', API_KEY_STATUSES, ApiKeyStatus],
  ['API_KEY_AUDIT_ACTIONS', API_KEY_AUDIT_ACTIONS, ApiKeyAuditAction],
  ['APPROVAL_STATUSES', APPROVAL_STATUSES, ApprovalStatus],
  ['TEAM_ROLE_SET', TEAM_ROLE_SET, TeamRole],
  ['PASSWORD_CHANGE_REASONS', PASSWORD_CHANGE_REASONS, PasswordChangeReason],
  ['VERIFICATION_PURPOSES', VERIFICATION_PURPOSES, VerificationPurpose],
];

describe('the identity and apikeys closed sets', () => {
  it.each(tables)('%s names every value of its proto enum, once', (_name, set, protoEnum) =>
    expectNamesEveryValue(set, protoEnum),
  );

  it('keeps the JSON names the spec gives', () => {
    expect(API_KEY_SCOPES.names).toEqual(['chat', 'agent:read', 'workflow:execute', 'knowledge:read']);
    expect(API_KEY_STATUSES.names).toEqual(['active', 'inactive', 'expired']);
    expect(APPROVAL_STATUSES.names).toEqual(['pending', 'approved']);
    expect(TEAM_ROLE_SET.names).toEqual(['OWNER', 'ADMIN', 'MEMBER']);
    expect(PASSWORD_CHANGE_REASONS.names).toEqual(['expired', 'force']);
    expect(VERIFICATION_PURPOSES.names).toEqual(['register', 'reset_password']);
  });
});
