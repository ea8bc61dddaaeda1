import { notificationSets as sets, type notificationsV1 } from '@platform/contracts';
import type { AdminListInput } from '../domain/admin-notifications.js';
import type { AutoConfigUpdate } from '../domain/auto-config.js';
import { nameIn } from '../domain/closed-values.js';
import type { CreateNotificationInput } from '../domain/create-notification.js';
import type { ListNotificationsInput } from '../domain/user-notifications.js';

/** The requests' closed-set values as the names the use cases work with ('' = not given). */
const scopeName = (value: number) => nameIn(sets.NOTIFICATION_SCOPES, value);
const levelName = (value: number) => nameIn(sets.NOTIFICATION_LEVELS, value);
const channelName = (value: number) => nameIn(sets.NOTIFICATION_CHANNELS, value);

export const decodeList = (request: notificationsV1.ListNotificationsRequest): ListNotificationsInput => ({
  ...request,
  scope: scopeName(request.scope),
  level: levelName(request.level),
});

export const decodeAdminList = (request: notificationsV1.AdminListNotificationsRequest): AdminListInput => ({
  ...request,
  scope: request.scope.map(scopeName),
  level: request.level.map(levelName),
});

export const decodeCreate = (
  request: notificationsV1.CreateNotificationRequest,
): CreateNotificationInput => ({
  ...request,
  scope: scopeName(request.scope),
  source: nameIn(sets.NOTIFICATION_SOURCES, request.source),
  level: levelName(request.level),
  notify_channels: request.notify_channels.map(channelName),
});

export const decodeAutoConfigUpdate = (
  request: notificationsV1.UpdateAutoNotificationConfigRequest,
): AutoConfigUpdate => ({
  channels: request.channels?.values.map(channelName),
  enabled_types: request.enabled_types?.values,
});
