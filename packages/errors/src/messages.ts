import { CATALOG } from './catalog.js';
import type { DefaultMsgKey } from './codes.js';
import { ERROR_KEY_MESSAGES, type ErrorKey } from './messages/error-keys.js';
import { GENERAL_MESSAGES, type GeneralKey } from './messages/general.js';
import { DELIVERY_MESSAGES, type DeliveryMessageKey } from './messages/delivery.js';
import type { Translations } from './types.js';

export { ERROR_KEY_MESSAGES, type ErrorKey } from './messages/error-keys.js';
export { GENERAL_MESSAGES, type GeneralKey } from './messages/general.js';
export { DELIVERY_MESSAGES, type DeliveryMessageKey } from './messages/delivery.js';

/** Every msg key this package can translate. */
export type MsgKey = DefaultMsgKey | ErrorKey | GeneralKey | DeliveryMessageKey;

/**
 * All message texts by key, in `en` and `zh` (Simplified Chinese): each catalog code's default key,
 * the extra error keys (`messages/error-keys.ts`) and the general ones (`messages/general.ts`).
 * Texts may contain `{placeholders}` filled from `data` / params by `translate()`.
 */
export const MESSAGES: Readonly<Record<MsgKey, Translations>> = buildMessages();

function buildMessages(): Readonly<Record<MsgKey, Translations>> {
  const all: Record<string, Translations> = {};
  const add = (key: string, texts: Translations): void => {
    if (key in all) throw new Error(`@platform/errors: duplicate msg key ${key}`);
    all[key] = Object.freeze({ en: texts.en, zh: texts.zh });
  };
  for (const entry of CATALOG) add(entry.msgKey, entry.messages);
  for (const [key, texts] of Object.entries(ERROR_KEY_MESSAGES)) add(key, texts);
  for (const [key, texts] of Object.entries(GENERAL_MESSAGES)) add(key, texts);
  for (const [key, texts] of Object.entries(DELIVERY_MESSAGES)) add(key, texts);
  return Object.freeze(all) as Record<MsgKey, Translations>;
}

/** Keys the spec and ARCHITECTURE name for particular failures (each carried as `data.error_key`). */
export const SPEC_ERROR_KEYS = [
  'session_expired_new_login',
  'api_key_no_agent_access',
  'api_key_no_workflow_access',
  'workflow_not_published',
  'workflow_schema_outdated',
  'validation_error',
  'insufficient_privileges',
  'notification_scope_requires_team',
  'team_admin_required',
  'team_not_found',
  'notification_not_found',
  'invalid_notification_type',
  'model_type_not_supported',
  'smtp_not_enabled',
  'smtp_not_configured',
  'dingtalk_not_enabled',
  'dingtalk_not_configured',
  'wechat_not_enabled',
  'wechat_not_configured',
  'feishu_not_enabled',
  'feishu_not_configured',
  'webhook_not_enabled',
  'webhook_not_configured',
  'slack_not_enabled',
  'slack_not_configured',
] as const satisfies readonly MsgKey[];

/** True when `key` has texts in this package. */
export function isMsgKey(key: unknown): key is MsgKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(MESSAGES, key);
}
