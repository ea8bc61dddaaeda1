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
export { API_KEY_RULES, type ApiKeyScope } from './apikeys-rules.js';
export { EMAIL_SEND_TASK, type EmailTaskArgs } from './email-task.js';
export { isReservedObjectKey, SITE_SETTINGS_UPDATE_RULES } from './settings-rules.js';
export { closedSet, type ClosedSet } from './closed-set.js';
export {
  decimalPlaces,
  HTTP_URL_PATTERN,
  isHttpUrl,
  MODEL_FIELD_RULES,
  MODEL_PROVIDERS,
  MODEL_TYPES,
  type ModelProviderName,
  type ModelTypeName,
} from './models-sets.js';
export { isSafeLinkUrl, LINK_URL_MAX_LENGTH, LINK_URL_RULE, SAFE_LINK_URL_PATTERN } from './link-url.js';
export {
  DELIVERY_STATUSES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  NOTIFICATION_SCOPES,
  NOTIFICATION_SOURCES,
  type DeliveryStatusName,
  type NotificationChannelName,
  type NotificationLevelName,
  type NotificationScopeName,
  type NotificationSourceName,
} from './notifications-sets.js';
export {
  AGENT_SORT_KEYS,
  GRANULARITIES,
  SORT_ORDERS,
  TIME_RANGES,
  TIMEOUT_SORT_KEYS,
  TIMEOUT_SOURCES,
  WORKFLOW_SORT_KEYS,
} from './observability-sets.js';
