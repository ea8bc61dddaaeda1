import { describe, expect, it } from 'vitest';
import { CATALOG, ErrorCode, getCatalogEntry, isErrorCode } from '../src/index.js';

// Transcribed by hand from the spec's "Errors" section: [code, constant, HTTP status, reserved].
// Reserved codes without an HTTP status in the spec: 6004 → 500, 6105 → 400, 6202 → 400 (our choice).
const SPEC: readonly (readonly [number, string, number, boolean])[] = [
  [1000, 'UNKNOWN_ERROR', 400, false],
  [1001, 'VALIDATION_ERROR', 422, false],
  [1002, 'BAD_REQUEST', 400, false],
  [1003, 'INTERNAL_ERROR', 500, false],
  [1004, 'FORBIDDEN', 403, false],
  [2000, 'UNAUTHORIZED', 401, false],
  [2001, 'INVALID_TOKEN', 401, false],
  [2002, 'TOKEN_EXPIRED', 401, false],
  [2003, 'INVALID_CREDENTIALS', 400, false],
  [2004, 'INACTIVE_USER', 401, false],
  [3000, 'PERMISSION_DENIED', 403, false],
  [3001, 'INSUFFICIENT_PRIVILEGES', 403, false],
  [3002, 'NOT_TEAM_MEMBER', 403, false],
  [3003, 'TEAM_ADMIN_REQUIRED', 403, false],
  [3004, 'TEAM_OWNER_REQUIRED', 403, false],
  [4000, 'NOT_FOUND', 404, false],
  [4001, 'USER_NOT_FOUND', 404, false],
  [4002, 'ROLE_NOT_FOUND', 404, false],
  [4003, 'PERMISSION_NOT_FOUND', 404, false],
  [4004, 'TEAM_NOT_FOUND', 404, false],
  [4005, 'TEAM_MEMBER_NOT_FOUND', 404, false],
  [5000, 'REGISTRATION_DISABLED', 400, false],
  [5001, 'ALREADY_EXISTS', 400, false],
  [5002, 'USERNAME_EXISTS', 400, false],
  [5003, 'EMAIL_EXISTS', 400, false],
  [5004, 'EMAIL_NOT_VERIFIED', 400, false],
  [5005, 'VERIFICATION_CODE_INVALID', 400, false],
  [5006, 'VERIFICATION_CODE_EXPIRED', 400, false],
  [5007, 'EMAIL_SEND_FAILED', 400, false],
  [5008, 'EMAIL_SEND_TOO_FREQUENT', 400, false],
  [5100, 'ROLE_NAME_EXISTS', 400, false],
  [5101, 'PERMISSION_CODE_EXISTS', 400, false],
  [5102, 'TEAM_NAME_EXISTS', 400, false],
  [5103, 'ALREADY_TEAM_MEMBER', 400, false],
  [5104, 'DUPLICATE_NAME', 400, false],
  [5200, 'CANNOT_DELETE_SYSTEM_ROLE', 400, false],
  [5201, 'CANNOT_DELETE_SUPERUSER', 400, false],
  [5202, 'CANNOT_DELETE_SYSTEM_PERMISSION', 400, false],
  [5203, 'CANNOT_UPDATE_SYSTEM_PERMISSION', 400, false],
  [5204, 'CANNOT_MODIFY_SYSTEM_ROLE', 400, false],
  [5205, 'CANNOT_DELETE_DEFAULT_TEAM', 400, false],
  [5206, 'CANNOT_ADD_AS_OWNER', 400, false],
  [5207, 'CANNOT_CHANGE_OWNER_ROLE', 400, false],
  [5208, 'CANNOT_PROMOTE_TO_OWNER', 400, false],
  [5209, 'CANNOT_REMOVE_OWNER', 400, false],
  [5210, 'OWNER_CANNOT_LEAVE', 400, false],
  [5211, 'ROLE_IN_USE', 400, false],
  [5212, 'USER_ALREADY_ACTIVE', 400, false],
  [5213, 'USER_ALREADY_INACTIVE', 400, false],
  [5214, 'CANNOT_DEACTIVATE_SUPERUSER', 400, false],
  [5300, 'ACCOUNT_LOCKED', 400, false],
  [5301, 'TOO_MANY_LOGIN_ATTEMPTS', 400, true],
  [5302, 'CAPTCHA_REQUIRED', 400, false],
  [5303, 'CAPTCHA_INVALID', 400, false],
  [5304, 'PASSWORD_EXPIRED', 400, true],
  [5305, 'FORCE_PASSWORD_CHANGE_REQUIRED', 400, true],
  [5306, 'PASSWORD_MIN_AGE_NOT_MET', 400, false],
  [5307, 'PASSWORD_RECENTLY_USED', 400, true],
  [5310, 'TOTP_REQUIRED', 400, true],
  [5311, 'TOTP_INVALID', 400, false],
  [5312, 'TOTP_RATE_LIMITED', 400, false],
  [5313, 'TOTP_NOT_ENABLED', 400, false],
  [5314, 'TOTP_ALREADY_ENABLED', 400, false],
  [5315, 'TOTP_SETUP_EXPIRED', 400, false],
  [5316, 'TOTP_SETUP_REQUIRED', 400, true],
  [5400, 'RATE_LIMITED', 400, false],
  [6000, 'KB_NOT_FOUND', 404, false],
  [6001, 'KB_NAME_EXISTS', 400, false],
  [6002, 'DOCUMENT_NOT_FOUND', 404, false],
  [6003, 'INVALID_DOCUMENT_TYPE', 400, false],
  [6004, 'DOCUMENT_PROCESSING_FAILED', 500, true],
  [6005, 'CHUNK_NOT_FOUND', 404, false],
  [6006, 'DOCUMENT_PROCESSING', 400, false],
  [6007, 'KB_ACCESS_DENIED', 403, false],
  [6100, 'MODEL_NOT_FOUND', 404, false],
  [6101, 'TEAM_MODEL_NOT_FOUND', 404, false],
  [6102, 'TEAM_MODEL_EXISTS', 400, false],
  [6103, 'MODEL_QUOTA_EXCEEDED', 429, false],
  [6104, 'MODEL_NOT_AUTHORIZED', 400, false],
  [6105, 'MODEL_VISION_NOT_SUPPORTED', 400, true],
  [6106, 'MODEL_DISABLED', 400, false],
  [6200, 'AGENT_NOT_FOUND', 404, false],
  [6201, 'AGENT_ACCESS_DENIED', 403, false],
  [6202, 'AGENT_NOT_PUBLISHED', 400, true],
  [6210, 'CONVERSATION_NOT_FOUND', 404, false],
  [6211, 'MESSAGE_NOT_FOUND', 404, false],
  [6300, 'SSO_PROVIDER_NOT_FOUND', 400, false],
  [6301, 'SSO_SESSION_EXPIRED', 400, true],
  [6302, 'SSO_REGISTRATION_DISABLED', 400, false],
  [6303, 'SSO_AUTHENTICATION_FAILED', 400, true],
  [6304, 'SSO_INVALID_CONFIGURATION', 400, false],
  [6305, 'SSO_PROVIDER_NAME_EXISTS', 400, false],
  [6306, 'PASSWORD_LOGIN_DISABLED', 400, false],
];

describe('error catalog', () => {
  it('has exactly the spec codes, no extra and none missing', () => {
    expect(CATALOG.map((e) => e.code)).toEqual(SPEC.map(([code]) => code));
    expect(Object.values(ErrorCode).sort((a, b) => a - b)).toEqual(SPEC.map(([code]) => code));
    expect(CATALOG).toHaveLength(93);
  });

  it.each(SPEC)('%i %s → HTTP %i (reserved: %s)', (code, constant, httpStatus, reserved) => {
    const entry = getCatalogEntry(code);
    expect(entry).toBeDefined();
    expect(entry?.constant).toBe(constant);
    expect(entry?.httpStatus).toBe(httpStatus);
    expect(entry?.reserved).toBe(reserved);
    expect(entry?.msgKey).toBe(constant.toLowerCase());
    expect(ErrorCode[constant as keyof typeof ErrorCode]).toBe(code);
  });

  it('records the spec’s situational HTTP statuses', () => {
    const alternates = (code: number) => getCatalogEntry(code)?.alternateStatuses.map((a) => a.httpStatus);
    expect(alternates(ErrorCode.UNKNOWN_ERROR)).toEqual([500]);
    expect(alternates(ErrorCode.VALIDATION_ERROR)).toEqual([400]);
    expect(alternates(ErrorCode.BAD_REQUEST)).toEqual([409]);
    expect(alternates(ErrorCode.INVALID_TOKEN)).toEqual([400]);
    expect(alternates(ErrorCode.TOKEN_EXPIRED)).toEqual([400]);
    expect(alternates(ErrorCode.INVALID_CREDENTIALS)).toEqual([403]);
    expect(alternates(ErrorCode.INACTIVE_USER)).toEqual([400]);
    expect(alternates(ErrorCode.NOT_TEAM_MEMBER)).toEqual([404]);
  });

  it('only 6103 maps to 429; 5312 and 5400 are 400', () => {
    expect(CATALOG.filter((e) => e.httpStatus === 429).map((e) => e.code)).toEqual([6103]);
    expect(getCatalogEntry(5312)?.httpStatus).toBe(400);
    expect(getCatalogEntry(5400)?.httpStatus).toBe(400);
  });

  it('is frozen and answers lookups', () => {
    expect(Object.isFrozen(CATALOG)).toBe(true);
    expect(Object.isFrozen(CATALOG[0])).toBe(true);
    expect(isErrorCode(5002)).toBe(true);
    expect(isErrorCode(5009)).toBe(false);
    expect(isErrorCode('5002')).toBe(false);
    expect(getCatalogEntry(9999)).toBeUndefined();
    expect(ErrorCode.USERNAME_EXISTS).toBe(5002);
  });
});
