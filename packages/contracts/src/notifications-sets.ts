import {
  DeliveryStatus,
  NotificationChannel,
  NotificationLevel,
  NotificationScope,
  NotificationSource,
} from './gen/platform/notifications/v1/notifications.js';
import { closedSet } from './closed-set.js';

/**
 * The notifications API's closed sets (notifications.proto), each written once: the gateway's
 * request schemas and the OpenAPI document use `names`, the notifications service the same tables.
 */
export const NOTIFICATION_SCOPES = closedSet([
  ['global', NotificationScope.NOTIFICATION_SCOPE_GLOBAL],
  ['team', NotificationScope.NOTIFICATION_SCOPE_TEAM],
  ['user', NotificationScope.NOTIFICATION_SCOPE_USER],
] as const);
export type NotificationScopeName = (typeof NOTIFICATION_SCOPES.names)[number];

export const NOTIFICATION_LEVELS = closedSet([
  ['low', NotificationLevel.NOTIFICATION_LEVEL_LOW],
  ['medium', NotificationLevel.NOTIFICATION_LEVEL_MEDIUM],
  ['high', NotificationLevel.NOTIFICATION_LEVEL_HIGH],
] as const);
export type NotificationLevelName = (typeof NOTIFICATION_LEVELS.names)[number];

export const NOTIFICATION_SOURCES = closedSet([
  ['system', NotificationSource.NOTIFICATION_SOURCE_SYSTEM],
  ['user', NotificationSource.NOTIFICATION_SOURCE_USER],
  ['biz', NotificationSource.NOTIFICATION_SOURCE_BIZ],
] as const);
export type NotificationSourceName = (typeof NOTIFICATION_SOURCES.names)[number];

/** The delivery channels: automatic-notification config, `notify_channels`, channel tests. */
export const NOTIFICATION_CHANNELS = closedSet([
  ['email', NotificationChannel.NOTIFICATION_CHANNEL_EMAIL],
  ['dingtalk', NotificationChannel.NOTIFICATION_CHANNEL_DINGTALK],
  ['wechat', NotificationChannel.NOTIFICATION_CHANNEL_WECHAT],
  ['feishu', NotificationChannel.NOTIFICATION_CHANNEL_FEISHU],
  ['slack', NotificationChannel.NOTIFICATION_CHANNEL_SLACK],
  ['webhook', NotificationChannel.NOTIFICATION_CHANNEL_WEBHOOK],
] as const);
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS.names)[number];

export const DELIVERY_STATUSES = closedSet([
  ['pending', DeliveryStatus.DELIVERY_STATUS_PENDING],
  ['sending', DeliveryStatus.DELIVERY_STATUS_SENDING],
  ['success', DeliveryStatus.DELIVERY_STATUS_SUCCESS],
  ['failed', DeliveryStatus.DELIVERY_STATUS_FAILED],
] as const);
export type DeliveryStatusName = (typeof DELIVERY_STATUSES.names)[number];
