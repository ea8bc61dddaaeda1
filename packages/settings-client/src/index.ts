export {
  createSettingsClient,
  DEFAULT_SETTINGS_TTL_MS,
  type EffectiveSettings,
  type IdentitySettingsClient,
  type SettingsClient,
  type SettingsClientOptions,
} from './settings-client.js';
export {
  followSettingsChanges,
  settingsCacheGroup,
  settingsCacheInstance,
  SETTINGS_CHANGED,
  type SettingsChangesOptions,
} from './settings-changes.js';
