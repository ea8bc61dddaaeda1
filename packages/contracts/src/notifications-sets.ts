import {
  DeliveryStatus,
  NotificationChannel,
  NotificationLevel,
  NotificationScope,
  NotificationSource,
  NotificationStatus,
} from './gen/platform/notifications/v1/notifications.js';
import { ChannelTestOutcome } from './gen/platform/notifications/v1/channel_tests.js';
import { enumSet } from './enum-set.js';

/**
 * The notifications API's closed sets (notifications.proto), each written once: the gateway's
 * request schemas and the OpenAPI document use `names`, the notifications service the same tables.
 */
export const NOTIFICATION_SCOPES = enumSet(NotificationScope, 'NOTIFICATION_SCOPE_');
export type NotificationScopeName = (typeof NOTIFICATION_SCOPES.names)[number];

export const NOTIFICATION_LEVELS = enumSet(NotificationLevel, 'NOTIFICATION_LEVEL_');
export type NotificationLevelName = (typeof NOTIFICATION_LEVELS.names)[number];

export const NOTIFICATION_SOURCES = enumSet(NotificationSource, 'NOTIFICATION_SOURCE_');
export type NotificationSourceName = (typeof NOTIFICATION_SOURCES.names)[number];

/** The delivery channels: automatic-notification config, `notify_channels`, channel tests. */
export const NOTIFICATION_CHANNELS = enumSet(NotificationChannel, 'NOTIFICATION_CHANNEL_');
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS.names)[number];

export const DELIVERY_STATUSES = enumSet(DeliveryStatus, 'DELIVERY_STATUS_');
export type DeliveryStatusName = (typeof DELIVERY_STATUSES.names)[number];

/** A notification's own state (`active`, the one the spec has) and how a channel test ended. */
export const NOTIFICATION_STATUSES = enumSet(NotificationStatus, 'NOTIFICATION_STATUS_');
export const CHANNEL_TEST_OUTCOMES = enumSet(ChannelTestOutcome, 'CHANNEL_TEST_OUTCOME_');
