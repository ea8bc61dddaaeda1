// Generated contracts, one namespace per proto package. Import a namespace
// (`import { identityV1 } from '@platform/contracts'`) or a file
// (`@platform/contracts/platform/identity/v1/identity`).
export * as commonV1 from './gen/platform/common/v1/info.js';
export * as identityV1 from './gen/platform/identity/v1/identity.js';
export * as apikeysV1 from './gen/platform/apikeys/v1/apikeys.js';
export * as notificationsV1 from './gen/platform/notifications/v1/notifications.js';
export * as modelsV1 from './gen/platform/models/v1/models.js';
export * as workflowsV1 from './gen/platform/workflows/v1/workflows.js';
export * as workflowRunsV1 from './gen/platform/workflows/v1/workflow_runs.js';
export * as observabilityV1 from './gen/platform/observability/v1/observability.js';
export * as conformanceV1 from './gen/platform/conformance/v1/probe.js';
export * as taskEventsV1 from './gen/platform/events/v1/task.js';
export * as notificationEventsV1 from './gen/platform/events/v1/notification_event.js';
export * as domainEventsV1 from './gen/platform/events/v1/domain_event.js';
export * as telemetryEventsV1 from './gen/platform/events/v1/telemetry.js';
export * as rpcStatus from './gen/google/rpc/status.js';
export * as rpcErrorDetails from './gen/google/rpc/error_details.js';
export { Any } from './gen/google/protobuf/any.js';
export {
  API_KEY_AUDIT_ACTIONS,
  API_KEY_RULES,
  API_KEY_SCOPES,
  API_KEY_STATUSES,
  type ApiKeyAuditActionName,
  type ApiKeyScope,
  type ApiKeyStatusName,
} from './apikeys-rules.js';
export {
  APPROVAL_STATUSES,
  PASSWORD_CHANGE_REASONS,
  TEAM_ROLE_SET,
  VERIFICATION_PURPOSES,
  type TeamRoleName,
  type VerificationPurposeName,
} from './identity-closed-sets.js';
export { PASSWORD_BOUNDS } from './password-rules.js';
export { EMAIL_SEND_TASK, type EmailTaskArgs } from './email-task.js';
export { isReservedObjectKey, SITE_SETTINGS_UPDATE_RULES } from './settings-rules.js';
export { closedSet, type ClosedSet, type NameOf } from './closed-set.js';
export {
  CHANNEL_SETTING_DEFAULTS,
  isSmtpConfigured,
  isSmtpReady,
  mailFromAddress,
  type ChannelSettings,
  type SmtpSettings,
} from './channel-settings.js';

export { enumSet, type EnumNames } from './enum-set.js';
export * as jsonValueV1 from './gen/platform/common/v1/json_value.js';
export { fromJsonValue, toJsonValue, toOptionalJsonValue } from './json-value.js';
export * from './workflow-sets.js';
export { CODE_NODE_RULES, DEFINITION_RULES, WORKFLOW_FIELD_RULES } from './workflow-rules.js';

// The closed sets and field rules of models, notifications and observability (issue 25); the
// namespaces serve a file that uses many of one area's sets.
export * from './models-sets.js';
export * from './link-url.js';
export * from './notifications-sets.js';
export * as notificationSets from './notifications-sets.js';
export * from './observability-sets.js';
export * as analyticsSets from './observability-sets.js';
export { translateFields, type FieldTranslators, type Translated } from './translate-fields.js';
