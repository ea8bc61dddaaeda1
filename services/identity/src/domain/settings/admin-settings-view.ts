import { isEmptySecret } from './settings-store.js';
import { isSecretSetting, SETTING_DEFINITIONS, type SettingKey, type SiteSettings } from './site-settings.js';

const KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];
const MASK = '****';

/**
 * What an admin may see of a secret, to recognise which one is set: a URL's scheme and host (the
 * token lives in its path or query), a header map's names; nothing of a password-like string.
 */
function maskedHint(value: unknown): unknown {
  if (isEmptySecret(value)) return null;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).map((name) => [name, MASK]));
  }
  if (typeof value === 'string' && URL.canParse(value)) {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.protocol}//${url.host}/${MASK}`;
  }
  return null;
}

/** Secrets whose view carries `<name>_hint`: the webhook URLs and headers. */
function hasHint(key: SettingKey): boolean {
  return key.endsWith('_webhook_url') || key === 'webhook_headers';
}

/**
 * What `GET /admin/site-settings` shows: every setting by its spec name; a secret is `null` with a
 * sibling `<name>_set` telling whether it has a value (and, for webhook URLs and headers,
 * `<name>_hint`, see `maskedHint`), so secrets never leave the service.
 */
export function adminSettingsView(settings: SiteSettings): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (isSecretSetting(key)) {
      view[key] = null;
      view[`${key}_set`] = !isEmptySecret(settings[key]);
      if (hasHint(key)) view[`${key}_hint`] = maskedHint(settings[key]);
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

/**
 * `<secret>_set` / `<secret>_hint` names: echoes of the read view that an update may carry back
 * and that are ignored (`_set` when a boolean, `_hint` always).
 */
export function isSecretSetFlag(name: string, value: unknown): boolean {
  const suffix = name.endsWith('_set') ? '_set' : name.endsWith('_hint') ? '_hint' : undefined;
  if (!suffix || (suffix === '_set' && typeof value !== 'boolean')) return false;
  const key = name.slice(0, -suffix.length);
  return Object.hasOwn(SETTING_DEFINITIONS, key) && isSecretSetting(key as SettingKey);
}

export function isSecretName(name: string): boolean {
  return Object.hasOwn(SETTING_DEFINITIONS, name) && isSecretSetting(name as SettingKey);
}
