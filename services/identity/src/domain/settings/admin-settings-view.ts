import { isSecretSetting, SETTING_DEFINITIONS, type SettingKey, type SiteSettings } from './site-settings.js';

const KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

/**
 * What `GET /admin/site-settings` shows: every setting by its spec name; a secret is `null` with a
 * sibling `<name>_set` telling whether it has a value, so secrets never leave the service.
 */
export function adminSettingsView(settings: SiteSettings): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (isSecretSetting(key)) {
      view[key] = null;
      view[`${key}_set`] = settings[key] !== '';
    } else {
      view[key] = settings[key];
    }
  }
  return view;
}

/** Effective values (secrets decrypted) for other services; `keys` narrows, unknown names are skipped. */
export function effectiveSettings(settings: SiteSettings, keys: readonly string[]): Record<string, unknown> {
  const wanted = keys.length > 0 ? KEYS.filter((key) => keys.includes(key)) : KEYS;
  return Object.fromEntries(wanted.map((key) => [key, settings[key]]));
}

/** `<secret>_set` names: echoes of the read view that an update may carry back and that are ignored. */
export function isSecretSetFlag(name: string): boolean {
  if (!name.endsWith('_set')) return false;
  const key = name.slice(0, -'_set'.length);
  return Object.hasOwn(SETTING_DEFINITIONS, key) && isSecretSetting(key as SettingKey);
}

export function isSecretName(name: string): boolean {
  return Object.hasOwn(SETTING_DEFINITIONS, name) && isSecretSetting(name as SettingKey);
}
