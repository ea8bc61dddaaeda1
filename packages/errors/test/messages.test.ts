import { describe, expect, it } from 'vitest';
import { CATALOG, ERROR_KEY_MESSAGES, GENERAL_MESSAGES, MESSAGES, NAMED_ERRORS } from '../src/index.js';
import { SPEC_ERROR_KEYS, getCatalogEntry, isMsgKey } from '../src/index.js';

// Every key the spec, ARCHITECTURE or the package brief names.
const NAMED_KEYS = [
  'session_expired_new_login',
  'api_key_no_agent_access',
  'api_key_no_workflow_access',
  'validation_error',
  'insufficient_privileges',
  'notification_scope_requires_team',
  'team_admin_required',
  'team_not_found',
  'notification_not_found',
  'invalid_notification_type',
  'model_type_not_supported',
  ...['smtp', 'dingtalk', 'wechat', 'feishu', 'webhook', 'slack'].flatMap((c) => [
    `${c}_not_enabled`,
    `${c}_not_configured`,
  ]),
  'captcha_click_prompt',
  'success',
  'notifications_created',
  'route_not_found',
  'service_unavailable',
  'service_timeout',
  'payload_too_large',
  'malformed_json',
  'unsupported_media_type',
  'api_key_invalid',
  'api_key_expired',
  'token_revoked',
  'token_invalid',
];

const CJK = /[\u4e00-\u9fff]/;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  it('every catalog entry has non-empty en and zh text, also under its msg key', () => {
    for (const entry of CATALOG) {
      expect(entry.messages.en.trim(), `${entry.code} en`).not.toBe('');
      expect(entry.messages.zh, `${entry.code} zh`).toMatch(CJK);
      expect(MESSAGES[entry.msgKey]).toEqual(entry.messages);
    }
  });

  it.each(NAMED_KEYS)('named key %s has en and zh text', (key) => {
    expect(isMsgKey(key)).toBe(true);
    const texts = MESSAGES[key as keyof typeof MESSAGES];
    expect(texts.en.trim()).not.toBe('');
    expect(texts.zh.trim()).not.toBe('');
    expect(texts.zh).not.toBe(texts.en);
  });

  it('every message has the same placeholders in en and zh', () => {
    for (const [key, texts] of Object.entries(MESSAGES)) {
      expect(placeholders(texts.zh), key).toEqual(placeholders(texts.en));
      expect(texts.en.trim(), key).not.toBe('');
      expect(texts.zh.trim(), key).not.toBe('');
    }
  });

  it('keys are snake_case and extra keys do not shadow catalog defaults', () => {
    const defaults = new Set(CATALOG.map((e) => e.msgKey));
    for (const key of [...Object.keys(ERROR_KEY_MESSAGES), ...Object.keys(GENERAL_MESSAGES)]) {
      expect(defaults.has(key as never), key).toBe(false);
    }
    for (const key of Object.keys(MESSAGES)) expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('placeholders named by the spec data fields', () => {
    expect(MESSAGES.account_locked.en).toContain('{lockout_seconds}');
    expect(MESSAGES.email_send_too_frequent.en).toContain('{remaining_seconds}');
    expect(MESSAGES.totp_rate_limited.en).toContain('{seconds}');
    expect(MESSAGES.captcha_click_prompt.zh).toContain('{target_text}');
    expect(MESSAGES.success).toEqual({ en: 'Success', zh: '成功' });
  });

  it('every spec error key and named error resolves to a real code', () => {
    for (const key of SPEC_ERROR_KEYS) expect(NAMED_ERRORS[key], key).toBeDefined();
    for (const [key, named] of Object.entries(NAMED_ERRORS)) {
      expect(isMsgKey(key), key).toBe(true);
      expect(getCatalogEntry(named.code), key).toBeDefined();
    }
    expect(NAMED_ERRORS.session_expired_new_login.code).toBe(2001);
    expect(NAMED_ERRORS.api_key_no_workflow_access.code).toBe(3000);
    expect(NAMED_ERRORS.notification_scope_requires_team.code).toBe(1002);
    expect(NAMED_ERRORS.notification_not_found.code).toBe(4000);
    expect(NAMED_ERRORS.team_admin_required.code).toBe(3003);
    expect(NAMED_ERRORS.validation_error.code).toBe(1002);
  });
});
