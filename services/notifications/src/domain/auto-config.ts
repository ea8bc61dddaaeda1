import { NOTIFICATION_CHANNELS, type notificationsV1 } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import type { NotificationsDependencies } from '../deps.js';
import { CHANNEL_NAMES, type ChannelName } from './delivery-port.js';
import { ALL_AUTO_TYPES, DEFAULT_ENABLED_TYPES, isAutoNotificationType } from './notification-types.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now'>;

const CONFIG_ID = 'auto-notifications';

export interface AutoConfig {
  channels: ChannelName[];
  enabled_types: string[];
}

/** The stored configuration, or the default (in-app only, the 19 default types) before any PUT. */
export async function readAutoConfig(deps: Deps): Promise<AutoConfig> {
  const doc = await deps.models.autoConfig.findById(CONFIG_ID).lean();
  if (!doc) return { channels: [], enabled_types: [...DEFAULT_ENABLED_TYPES] };
  return {
    channels: doc.channels.filter((name): name is ChannelName =>
      (CHANNEL_NAMES as readonly string[]).includes(name),
    ),
    // Listed in the spec's order, whatever order they were sent in.
    enabled_types: ALL_AUTO_TYPES.filter((type) => doc.enabled_types.includes(type)),
  };
}

/**
 * Sets `channels` and/or `enabled_types` (an omitted one keeps its value). An unknown type is
 * rejected with `invalid_notification_type`, never dropped; an unknown channel is 1001.
 */
/** An update: each part absent = unchanged; channels by name. */
export interface AutoConfigUpdate {
  channels?: string[];
  enabled_types?: string[];
}

export async function updateAutoConfig(
  deps: Deps,
  caller: Principal,
  request: AutoConfigUpdate,
): Promise<AutoConfig> {
  const current = await readAutoConfig(deps);
  const types = request.enabled_types;
  if (types) {
    const unknown = types.filter((type) => !isAutoNotificationType(type));
    if (unknown.length > 0) {
      throw BusinessError.named('invalid_notification_type', { data: { invalid_types: unknown } });
    }
  }
  const channels = request.channels;
  if (channels) {
    const unknown = channels.filter((name) => !(CHANNEL_NAMES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      throw BusinessError.validation(
        { channels: [`unknown channel: ${unknown.join(', ')}`] },
        { httpStatus: 400 },
      );
    }
  }
  await deps.models.autoConfig.updateOne(
    { _id: CONFIG_ID },
    {
      $set: {
        channels: channels ? [...new Set(channels)] : current.channels,
        enabled_types: types ? [...new Set(types)] : current.enabled_types,
        updated_at: deps.now(),
        updated_by: caller.user_id,
      },
    },
    { upsert: true },
  );
  return readAutoConfig(deps);
}

export function toConfigMessage(config: AutoConfig): notificationsV1.AutoNotificationConfig {
  return {
    channels: config.channels.map(NOTIFICATION_CHANNELS.toProto),
    enabled_types: config.enabled_types,
  };
}
