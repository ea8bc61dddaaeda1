import {
  DELIVERY_STATUSES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  NOTIFICATION_SCOPES,
  NOTIFICATION_SOURCES,
  NOTIFICATION_STATUSES,
  type notificationsV1,
} from '@platform/contracts';
import { z } from 'zod';
import { nameOf } from './closed-set-names.js';

/** Empty strings in the contract stand for null over HTTP. */
const orNull = (value: string): string | null => value || null;

export const channelNameOf = nameOf(NOTIFICATION_CHANNELS);

export const deliverySchema = z.object({
  id: z.string(),
  channel: z.enum(NOTIFICATION_CHANNELS.names),
  status: z.enum(DELIVERY_STATUSES.names),
  error_message: z.string().nullable(),
  retry_count: z.number().int(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const notificationSchema = z.object({
  id: z.uuid(),
  scope: z.enum(NOTIFICATION_SCOPES.names),
  team_id: z.string().nullable(),
  user_id: z.string().nullable(),
  type: z.string(),
  source: z.enum(NOTIFICATION_SOURCES.names),
  title: z.string(),
  content: z.string(),
  level: z.enum(NOTIFICATION_LEVELS.names),
  data: z.record(z.string(), z.unknown()).nullable(),
  link_url: z.string().nullable(),
  status: z.enum(NOTIFICATION_STATUSES.names),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  is_read: z.boolean(),
  read_at: z.string().nullable(),
  deliveries: z.array(deliverySchema),
});

export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export function toNotification(message: notificationsV1.Notification) {
  return {
    id: message.id,
    scope: nameOf(NOTIFICATION_SCOPES)(message.scope),
    team_id: orNull(message.team_id),
    user_id: orNull(message.user_id),
    type: message.type,
    source: nameOf(NOTIFICATION_SOURCES)(message.source),
    title: message.title,
    content: message.content,
    level: nameOf(NOTIFICATION_LEVELS)(message.level),
    data: message.data ?? null,
    link_url: orNull(message.link_url),
    status: nameOf(NOTIFICATION_STATUSES)(message.status),
    expires_at: orNull(message.expires_at),
    created_at: message.created_at,
    updated_at: message.updated_at,
    is_read: message.is_read,
    read_at: orNull(message.read_at),
    deliveries: message.deliveries.map((delivery) => ({
      id: delivery.id,
      channel: channelNameOf(delivery.channel),
      status: nameOf(DELIVERY_STATUSES)(delivery.status),
      error_message: orNull(delivery.error_message),
      retry_count: delivery.retry_count,
      sent_at: orNull(delivery.sent_at),
      created_at: delivery.created_at,
      updated_at: delivery.updated_at,
    })),
  };
}

export function toAutoConfig(config: notificationsV1.AutoNotificationConfig) {
  return { channels: config.channels.map(channelNameOf), enabled_types: config.enabled_types };
}

export function toNotificationPage(page: notificationsV1.NotificationPage) {
  return { ...page, items: page.items.map(toNotification) };
}
