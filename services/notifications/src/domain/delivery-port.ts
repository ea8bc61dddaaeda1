import { NOTIFICATION_CHANNELS, type NotificationChannelName } from '@platform/contracts';

/**
 * The one seam between the in-app side of notifications (lists, create, delete, automatic
 * notifications) and the delivery side (channels, senders, the `default`-queue worker, retries).
 * The delivery side implements it under `src/delivery/` (`createDeliveryPort(deps)`); nothing else
 * crosses the boundary. Channel names are the spec's Delivery record `channel` values, the
 * contract's closed set (packages/contracts notifications-sets.ts).
 */
export const CHANNEL_NAMES = NOTIFICATION_CHANNELS.names;
export type ChannelName = NotificationChannelName;

export interface DeliverableNotification {
  id: string;
  scope: 'user' | 'team' | 'global';
  user_id: string | null;
  team_id: string | null;
  title: string;
  content: string;
  link_url: string | null;
  type: string;
  level: string;
  /**
   * Runs the scheduling of this notification's deliveries (synchronous steps) as the work of what
   * caused it — an event's own request id and trace when a batch of events is handled at once;
   * absent: the caller's context (the request's).
   */
  origin?: <R>(work: () => R) => R;
}

/** One element of a notification's `deliveries` (spec: Delivery record), plus its own id. */
export interface DeliveryView {
  id: string;
  channel: ChannelName;
  status: 'pending' | 'sending' | 'success' | 'failed';
  retry_count: number;
  sent_at: Date | null;
  /** Already localized for the requested locale. */
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryPort {
  /** Throws the named BusinessError (`*_not_enabled` / `*_not_configured`) for the first channel that cannot deliver; checks every entry before anything is created. */
  validateChannels(channels: readonly ChannelName[]): Promise<void>;
  /** Writes one pending delivery per channel (MongoDB first), then submits them to the queue best-effort (a reconciler covers Kafka outages). */
  scheduleDeliveries(notification: DeliverableNotification, channels: readonly ChannelName[]): Promise<void>;
  /** scheduleDeliveries for many notifications, with one insert for all their deliveries. */
  scheduleManyDeliveries(
    notifications: readonly DeliverableNotification[],
    channels: readonly ChannelName[],
  ): Promise<void>;
  /** Deliveries of these notifications, error messages localized for `locale`. */
  deliveriesFor(notificationIds: readonly string[], locale: string): Promise<Map<string, DeliveryView[]>>;
}
