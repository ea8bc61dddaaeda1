import { describe, expect, it } from 'vitest';
import {
  BusinessError,
  ErrorCode,
  fail,
  isBusinessError,
  toBusinessError,
  type BusinessErrorPayload,
} from '../src/index.js';

describe('BusinessError', () => {
  it('takes msgKey and httpStatus from the catalog', () => {
    const error = new BusinessError(ErrorCode.USERNAME_EXISTS);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('BusinessError');
    expect(error.code).toBe(5002);
    expect(error.constant).toBe('USERNAME_EXISTS');
    expect(error.msgKey).toBe('username_exists');
    expect(error.httpStatus).toBe(400);
    expect(error.data).toBeNull();
    expect(error.message).toBe('Username already exists');
  });

  it('keeps data and allows the spec’s status overrides', () => {
    const locked = new BusinessError(ErrorCode.ACCOUNT_LOCKED, { data: { lockout_seconds: 600 } });
    expect(locked.data).toEqual({ lockout_seconds: 600 });
    expect(locked.message).toContain('600');
    expect(new BusinessError(ErrorCode.INVALID_CREDENTIALS, { httpStatus: 403 }).httpStatus).toBe(403);
    expect(new BusinessError(ErrorCode.INACTIVE_USER).httpStatus).toBe(401);
    expect(new BusinessError(ErrorCode.INACTIVE_USER, { httpStatus: 400 }).httpStatus).toBe(400);
    expect(new BusinessError(ErrorCode.MODEL_QUOTA_EXCEEDED).httpStatus).toBe(429);
    expect(new BusinessError(ErrorCode.INTERNAL_ERROR).httpStatus).toBe(500);
  });

  it('keeps the cause', () => {
    const cause = new Error('db down');
    expect(new BusinessError(ErrorCode.INTERNAL_ERROR, { cause }).cause).toBe(cause);
  });

  describe('data.error_key rule', () => {
    it('adds error_key when msgKey differs from the default key', () => {
      const error = new BusinessError(ErrorCode.BAD_REQUEST, { msgKey: 'notification_scope_requires_team' });
      expect(error.data).toEqual({ error_key: 'notification_scope_requires_team' });
      expect(fail(error, 'en').msg).toBe('A team (team_id) is required for this notification scope');
    });

    it('keeps other data fields beside error_key', () => {
      const error = new BusinessError(ErrorCode.VALIDATION_ERROR, {
        msgKey: 'model_type_not_supported',
        httpStatus: 400,
        data: { errors: { model_type: ['x'] } },
      });
      expect(error.data).toEqual({ errors: { model_type: ['x'] }, error_key: 'model_type_not_supported' });
      expect(error.httpStatus).toBe(400);
    });

    it('does not add error_key for the default key unless asked', () => {
      expect(new BusinessError(ErrorCode.TEAM_ADMIN_REQUIRED).data).toBeNull();
      expect(
        new BusinessError(ErrorCode.TEAM_ADMIN_REQUIRED, { msgKey: 'team_admin_required' }).data,
      ).toBeNull();
      expect(new BusinessError(ErrorCode.TEAM_ADMIN_REQUIRED, { errorKey: true }).data).toEqual({
        error_key: 'team_admin_required',
      });
      expect(
        new BusinessError(ErrorCode.BAD_REQUEST, { msgKey: 'malformed_json', errorKey: false }).data,
      ).toBeNull();
    });

    it('keeps an error_key already in data', () => {
      const error = new BusinessError(ErrorCode.BAD_REQUEST, {
        msgKey: 'validation_error',
        data: { error_key: 'custom' },
      });
      expect(error.data).toEqual({ error_key: 'custom' });
    });
  });

  describe('named()', () => {
    it('uses the pinned code and status and always sets error_key', () => {
      const smtp = BusinessError.named('smtp_not_enabled');
      expect([smtp.code, smtp.httpStatus, smtp.msgKey]).toEqual([1002, 400, 'smtp_not_enabled']);
      expect(smtp.data).toEqual({ error_key: 'smtp_not_enabled' });

      const admin = BusinessError.named('team_admin_required');
      expect([admin.code, admin.httpStatus]).toEqual([3003, 403]);
      expect(admin.data).toEqual({ error_key: 'team_admin_required' });

      const session = BusinessError.named('session_expired_new_login');
      expect([session.code, session.httpStatus]).toEqual([2001, 401]);
      expect(fail(session, 'zh').msg).toBe('您的账号已在其他地方登录，当前会话已失效，请重新登录');

      const temp = BusinessError.named('temp_token_expired');
      expect([temp.code, temp.httpStatus]).toEqual([2002, 400]);

      const markRead = BusinessError.named('validation_error');
      expect([markRead.code, markRead.httpStatus]).toEqual([1002, 400]);
      expect(markRead.data).toEqual({ error_key: 'validation_error' });
    });

    it.each([
      ['token_invalid', ErrorCode.INVALID_CREDENTIALS, 403],
      ['service_unavailable', ErrorCode.INTERNAL_ERROR, 503],
      ['service_timeout', ErrorCode.INTERNAL_ERROR, 504],
      ['account_pending_approval', ErrorCode.INACTIVE_USER, 400],
      ['user_not_found', ErrorCode.NOT_FOUND, 400],
      ['current_password_incorrect', ErrorCode.INVALID_CREDENTIALS, 400],
      ['terms_not_accepted', ErrorCode.VALIDATION_ERROR, 400],
      ['totp_setup_not_started', ErrorCode.TOTP_NOT_ENABLED, 400],
      ['sso_state_invalid', ErrorCode.BAD_REQUEST, 400],
      ['sso_authentication_failed', ErrorCode.BAD_REQUEST, 400],
      ['sso_email_missing', ErrorCode.BAD_REQUEST, 400],
      ['sso_email_not_verified', ErrorCode.BAD_REQUEST, 400],
      ['sso_last_login_method', ErrorCode.FORBIDDEN, 403],
    ] as const)('%s keeps the code and status services raised it with by hand', (key, code, status) => {
      const error = BusinessError.named(key);
      expect([error.code, error.httpStatus, error.data]).toEqual([code, status, { error_key: key }]);
    });

    it('accepts data and a status override', () => {
      const error = BusinessError.named('invalid_notification_type', {
        data: { types: ['x.y'] },
        httpStatus: 422,
      });
      expect(error.code).toBe(1001);
      expect(error.httpStatus).toBe(422);
      expect(error.data).toEqual({ types: ['x.y'], error_key: 'invalid_notification_type' });
    });
  });

  describe('validation()', () => {
    it('is 1001 / 422 with data.errors', () => {
      const error = BusinessError.validation({ password: ['too short', 'no digit'] });
      expect(error.code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(error.httpStatus).toBe(422);
      expect(error.msgKey).toBe('validation_error');
      expect(error.data).toEqual({ errors: { password: ['too short', 'no digit'] } });
      expect(fail(error, 'en')).toEqual({
        code: 1001,
        data: { errors: { password: ['too short', 'no digit'] } },
        msg: 'Validation failed',
      });
    });

    it('is 400 when raised manually', () => {
      expect(BusinessError.validation({ email: ['already verified'] }, { httpStatus: 400 }).httpStatus).toBe(
        400,
      );
    });
  });

  describe('payload round trip', () => {
    it('toJSON / fromPayload preserve code, key, data and status', () => {
      const original = BusinessError.named('api_key_no_workflow_access', { data: { workflow_id: 'w1' } });
      const copy = BusinessError.fromPayload(JSON.parse(JSON.stringify(original)));
      expect(copy.toJSON()).toEqual(original.toJSON());
      const snake = BusinessError.fromPayload({
        code: 2003,
        msg_key: 'token_invalid',
        http_status: 403,
        data: null,
      });
      expect([snake.code, snake.msgKey, snake.httpStatus]).toEqual([2003, 'token_invalid', 403]);
    });

    it('maps garbage to 1003', () => {
      for (const bad of [null, 'x', { code: 9999 }, { code: '5002' }]) {
        const error = BusinessError.fromPayload(bad);
        expect(error.code).toBe(ErrorCode.INTERNAL_ERROR);
        expect(error.httpStatus).toBe(500);
      }
      const payload: BusinessErrorPayload = { code: 5002, msgKey: '', data: null, httpStatus: 42 };
      const error = BusinessError.fromPayload(payload);
      expect([error.msgKey, error.httpStatus]).toEqual(['username_exists', 400]);
    });
  });

  it('isBusinessError and toBusinessError', () => {
    const error = new BusinessError(ErrorCode.NOT_FOUND);
    expect(isBusinessError(error)).toBe(true);
    expect(isBusinessError(new Error('x'))).toBe(false);
    expect(isBusinessError({ code: 4000, msgKey: 'not_found', httpStatus: 404 })).toBe(false);
    const foreign = Object.assign(new Error('x'), {
      name: 'BusinessError',
      code: 4000,
      msgKey: 'a',
      httpStatus: 404,
    });
    expect(isBusinessError(foreign)).toBe(true);
    expect(toBusinessError(error)).toBe(error);
    const wrapped = toBusinessError(new TypeError('boom'));
    expect([wrapped.code, wrapped.httpStatus, wrapped.data]).toEqual([1003, 500, null]);
    expect(wrapped.message).not.toContain('boom');
  });
});
