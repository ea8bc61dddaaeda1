import type { ChannelName } from '../delivery-port.js';
import { channelSettingsFrom, type ChannelSettings } from './channel-settings.js';

type Key = keyof ChannelSettings;

/**
 * Per channel: the settings that say where a message goes, and the stored secrets that travel
 * with it there (as credentials, headers or a signing key). A channel test that sends somewhere
 * else than the saved destination must not carry the saved secrets along: an admin could point a
 * test at a host they control and collect them (issue 20). The URL of a robot (WeCom, Slack) is its
 * own credential and is replaced by the override itself. `smtp_encryption` counts as a destination:
 * switching it to `none` would send the stored password in clear text.
 */
const DESTINATION_SECRETS: Record<ChannelName, { destination: Key[]; secrets: Key[] }> = {
  email: {
    destination: ['smtp_host', 'smtp_port', 'smtp_encryption'],
    secrets: ['smtp_username', 'smtp_password'],
  },
  dingtalk: { destination: ['dingtalk_webhook_url'], secrets: ['dingtalk_webhook_secret'] },
  wechat: { destination: [], secrets: [] },
  feishu: { destination: ['feishu_webhook_url'], secrets: ['feishu_webhook_secret'] },
  slack: { destination: [], secrets: [] },
  webhook: { destination: ['webhook_url'], secrets: ['webhook_headers', 'webhook_secret'] },
};

export interface TestSettings {
  settings: ChannelSettings;
  /** The saved secrets left out because the destination was overridden (names only). */
  droppedSecrets: Key[];
}

/**
 * The settings a channel test uses: the saved ones overlaid by the overrides, except that a
 * destination different from the saved one drops every saved secret of that channel the request
 * does not give again itself.
 */
export function settingsForTest(
  channel: ChannelName,
  saved: Readonly<Record<string, unknown>>,
  overrides: Readonly<Record<string, unknown>>,
): TestSettings {
  const before = channelSettingsFrom(saved);
  const merged = channelSettingsFrom({ ...saved, ...overrides });
  const rule = DESTINATION_SECRETS[channel];
  const moved = rule.destination.some((key) => merged[key] !== before[key]);
  if (!moved) return { settings: merged, droppedSecrets: [] };
  const dropped = rule.secrets.filter((key) => !(key in overrides));
  const emptied = Object.fromEntries(dropped.map((key) => [key, null]));
  return { settings: channelSettingsFrom({ ...saved, ...emptied, ...overrides }), droppedSecrets: dropped };
}
