/**
 * What the in-app side needs from delivery (placeholder until h-ncore's version lands; same shape).
 */
export const CHANNEL_NAMES = ['email', 'dingtalk', 'wechat', 'feishu', 'webhook', 'slack'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export interface DeliverableNotification {
  id: string;
  scope: 'global' | 'team' | 'user';
  team_id: string | null;
  user_id: string | null;
  type: string;
  title: string;
  content: string;
  level: string;
  link_url: string | null;
}

export interface DeliveryView {
  channel: ChannelName;
  status: 'pending' | 'sending' | 'success' | 'failed';
  error_message: string | null;
  retry_count: number;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryPort {
  /** Throws the channel's `*_not_enabled` / `*_not_configured` BusinessError for the first bad one. */
  validateChannels(channels: readonly ChannelName[]): Promise<void>;
  /** Stores one `pending` delivery per channel and submits them; returns their views. */
  scheduleDeliveries(
    notification: DeliverableNotification,
    channels: readonly ChannelName[],
  ): Promise<DeliveryView[]>;
  /** Deliveries of each notification, `error_message` localized. */
  deliveriesFor(notificationIds: readonly string[], locale: string): Promise<Map<string, DeliveryView[]>>;
}
