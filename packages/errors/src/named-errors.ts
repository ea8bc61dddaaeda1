import { ErrorCode } from './codes.js';
import type { MsgKey } from './messages.js';

export interface NamedError {
  readonly code: ErrorCode;
  /** HTTP status when it differs from the code's catalog default. */
  readonly httpStatus?: number;
}

const channel = { code: ErrorCode.BAD_REQUEST } as const;

/**
 * Code (and HTTP status) of every failure raised by key, so all services raise a named failure the
 * same way: `BusinessError.named('smtp_not_enabled')`. Where the spec gives the code it is used;
 * the rest are this package's pinned choices (see README "Decisions").
 */
export const NAMED_ERRORS = {
  // Spec: single-session eviction 401 / 2001; API-key checks 2001, 2002, 3000.
  session_expired_new_login: { code: ErrorCode.INVALID_TOKEN },
  token_revoked: { code: ErrorCode.INVALID_TOKEN },
  token_invalid: { code: ErrorCode.INVALID_CREDENTIALS, httpStatus: 403 },
  api_key_invalid: { code: ErrorCode.INVALID_TOKEN },
  api_key_expired: { code: ErrorCode.TOKEN_EXPIRED },
  api_key_no_agent_access: { code: ErrorCode.PERMISSION_DENIED },
  api_key_no_workflow_access: { code: ErrorCode.PERMISSION_DENIED },
  api_key_scope_missing: { code: ErrorCode.PERMISSION_DENIED },
  api_key_not_allowed: { code: ErrorCode.PERMISSION_DENIED },
  // Issue 20: a key acts with at most its owner's current permissions (`data.permission`).
  api_key_owner_permission_missing: { code: ErrorCode.PERMISSION_DENIED },
  // Spec: verify-totp temp token invalid 400 / 2001, expired 400 / 2002.
  temp_token_invalid: { code: ErrorCode.INVALID_TOKEN, httpStatus: 400 },
  temp_token_expired: { code: ErrorCode.TOKEN_EXPIRED, httpStatus: 400 },
  // Password login of an account awaiting approval: 2004 at HTTP 400 (the code's alternate status).
  account_pending_approval: { code: ErrorCode.INACTIVE_USER, httpStatus: 400 },
  // Account and sign-in failures raised by identity.
  user_not_found: { code: ErrorCode.NOT_FOUND, httpStatus: 400 },
  current_password_incorrect: { code: ErrorCode.INVALID_CREDENTIALS },
  // Every place of an account's login budget is held by attempts being checked (issue 20): 5400
  // at HTTP 400 with data.limit; no failure, no lock (spec: 5301 is reserved, never raised).
  login_attempts_in_flight: { code: ErrorCode.RATE_LIMITED },
  totp_setup_not_started: { code: ErrorCode.TOTP_NOT_ENABLED },
  sso_state_invalid: { code: ErrorCode.BAD_REQUEST },
  sso_authentication_failed: { code: ErrorCode.BAD_REQUEST },
  sso_email_missing: { code: ErrorCode.BAD_REQUEST },
  sso_email_not_verified: { code: ErrorCode.BAD_REQUEST },
  sso_last_login_method: { code: ErrorCode.FORBIDDEN },
  // Spec: mark-read with neither field 400 / 1002 (validation_error).
  validation_error: { code: ErrorCode.BAD_REQUEST },
  insufficient_privileges: { code: ErrorCode.INSUFFICIENT_PRIVILEGES },
  team_admin_required: { code: ErrorCode.TEAM_ADMIN_REQUIRED },
  team_not_found: { code: ErrorCode.TEAM_NOT_FOUND },
  notification_scope_requires_team: { code: ErrorCode.BAD_REQUEST },
  notification_scope_requires_user: { code: ErrorCode.BAD_REQUEST },
  notification_not_found: { code: ErrorCode.NOT_FOUND },
  // Workflows: not found also for a workflow the caller may not see (existence is not revealed).
  workflow_not_found: { code: ErrorCode.NOT_FOUND },
  workflow_snapshot_not_found: { code: ErrorCode.NOT_FOUND },
  workflow_snapshot_exists: { code: ErrorCode.BAD_REQUEST, httpStatus: 409 },
  // The ephemeral /workflow-versions store: unknown version id; the workflow's version lock stayed taken.
  workflow_version_not_found: { code: ErrorCode.NOT_FOUND },
  workflow_version_busy: { code: ErrorCode.BAD_REQUEST, httpStatus: 409 },
  // Issue 20: the user's versions hold their byte budget (data: limit, used, needed); 400 / 5400.
  workflow_versions_budget_exceeded: { code: ErrorCode.RATE_LIMITED },
  // Runs (issue 12): a production run of a never-published workflow; a definition below schema 2;
  // a node the runner does not know or cannot run (data names the node); an unknown run id.
  workflow_not_published: { code: ErrorCode.BAD_REQUEST },
  workflow_schema_outdated: { code: ErrorCode.BAD_REQUEST },
  workflow_node_not_runnable: { code: ErrorCode.BAD_REQUEST },
  workflow_run_not_found: { code: ErrorCode.NOT_FOUND },
  // Spec names only the key; a domain-raised validation failure: 1001 at HTTP 400.
  invalid_notification_type: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  model_type_not_supported: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  embedding_provider_not_supported: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  model_endpoint_not_allowed: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  email_already_verified: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  terms_not_accepted: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  unknown_setting: { code: ErrorCode.VALIDATION_ERROR, httpStatus: 400 },
  // Spec: a notify_channels check fails with HTTP 400 and one of these keys.
  smtp_not_enabled: channel,
  smtp_not_configured: channel,
  dingtalk_not_enabled: channel,
  dingtalk_not_configured: channel,
  wechat_not_enabled: channel,
  wechat_not_configured: channel,
  feishu_not_enabled: channel,
  feishu_not_configured: channel,
  webhook_not_enabled: channel,
  webhook_not_configured: channel,
  slack_not_enabled: channel,
  slack_not_configured: channel,
  // Gateway transport failures (ARCHITECTURE: unknown route 404 / 4000; bad bodies 422 / 1001).
  route_not_found: { code: ErrorCode.NOT_FOUND },
  malformed_json: { code: ErrorCode.BAD_REQUEST },
  unsupported_media_type: { code: ErrorCode.BAD_REQUEST, httpStatus: 415 },
  method_not_allowed: { code: ErrorCode.BAD_REQUEST, httpStatus: 405 },
  payload_too_large: { code: ErrorCode.BAD_REQUEST, httpStatus: 413 },
  service_unavailable: { code: ErrorCode.INTERNAL_ERROR, httpStatus: 503 },
  service_timeout: { code: ErrorCode.INTERNAL_ERROR, httpStatus: 504 },
  shutting_down: { code: ErrorCode.INTERNAL_ERROR, httpStatus: 503 },
} as const satisfies Partial<Record<MsgKey, NamedError>>;

/** Keys accepted by `BusinessError.named()`. */
export type NamedErrorKey = keyof typeof NAMED_ERRORS;
