import { BusinessError } from '@platform/errors';
import type { ChannelName, DeliveryPort } from './domain/delivery-port.js';

const NOT_ENABLED = {
  email: 'smtp_not_enabled',
  dingtalk: 'dingtalk_not_enabled',
  wechat: 'wechat_not_enabled',
  feishu: 'feishu_not_enabled',
  slack: 'slack_not_enabled',
  webhook: 'webhook_not_enabled',
} as const satisfies Record<ChannelName, string>;

/**
 * A build without the delivery side (src/delivery/) has no channel enabled: every channel is
 * refused before anything is created, and no notification has deliveries. Replaced by the delivery
 * side's port once it is wired in.
 */
export const noDelivery: DeliveryPort = {
  async validateChannels(channels) {
    const first = channels[0];
    if (first) throw BusinessError.named(NOT_ENABLED[first]);
  },
  async scheduleDeliveries() {
    throw new Error('no delivery side in this build');
  },
  async deliveriesFor() {
    return new Map();
  },
};
