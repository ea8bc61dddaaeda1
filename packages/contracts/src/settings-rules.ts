/**
 * The bounds of a site-settings update (`PUT /admin/site-settings`, `UpdateSiteSettings`), beside
 * settings.proto: the gateway refuses a body past them before parsing its values, and identity
 * checks again for calls that bypass the edge.
 */
export const SITE_SETTINGS_UPDATE_RULES = {
  /** More than every setting and its `_set` / `_hint` echo; larger bodies are never legitimate. */
  maxKeys: 150,
  maxKeyLength: 100,
} as const;

/**
 * Names that mean something to a JavaScript object rather than to the settings: `__proto__` would
 * replace an object's prototype when assigned (so a parser silently drops it), `constructor` and
 * `prototype` name inherited members. No setting has one of these names; an update naming one is
 * refused by name (1001) instead of being dropped or reaching an object literal as a key.
 */
const RESERVED_OBJECT_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isReservedObjectKey(key: string): boolean {
  return RESERVED_OBJECT_KEYS.has(key);
}
