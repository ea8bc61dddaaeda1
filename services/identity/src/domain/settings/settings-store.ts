import { SecretBox } from '@platform/crypto';
import type { Pool, PoolClient } from '@platform/db';
import { BusinessError } from '@platform/errors';
import { readAllSettings, writeSettings } from '../../data/settings-repository.js';
import { allowlistTooLong } from './model-endpoint-allowlist.js';
import {
  isSecretSetting,
  SESSION_TIMEOUT_FALLBACK_DAYS,
  SETTING_DEFINITIONS,
  type SettingKey,
  type SettingsReader,
  type SiteSettings,
} from './site-settings.js';

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

/** `''` or `{}`: a secret that is not set. */
export function isEmptySecret(value: unknown): boolean {
  if (value === '' || value === null || value === undefined) return true;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function defaults(): SiteSettings {
  const values = Object.fromEntries(
    Object.entries(SETTING_DEFINITIONS).map(([key, definition]) => [
      key,
      structuredClone(definition.default),
    ]),
  ) as SiteSettings;
  // The spec's in-code fallback: 30 is the seeded default, 7 applies when the row is missing.
  values.session_timeout_days = SESSION_TIMEOUT_FALLBACK_DAYS;
  return values;
}

/**
 * Site settings over the `site_settings` table: defaults for missing rows, secrets encrypted at
 * rest with SecretBox, every value validated by its definition. Reads are cached for `ttlMs` per
 * replica; `invalidate()` drops the cache (called after an update and on `settings.changed`).
 */
export class SettingsStore implements SettingsReader {
  // One value with a TTL, dropped by invalidate(): a field does it; lru-cache would add nothing.
  private cached: { value: SiteSettings; expiresAt: number } | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
    private readonly ttlMs = 2_000,
    /** MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES: the deployment's cap on allowlist entries. */
    private readonly allowlistMaxEntries = 200,
  ) {}

  async current(): Promise<SiteSettings> {
    if (this.cached && this.cached.expiresAt > Date.now()) return this.cached.value;
    const values = defaults() as Record<string, unknown>;
    for (const row of await readAllSettings(this.pool)) {
      if (!isSettingKey(row.key)) continue;
      values[row.key] = isSecretSetting(row.key) ? this.reveal(row.key, row.value) : row.value;
    }
    const value = values as SiteSettings;
    this.cached = { value, expiresAt: Date.now() + this.ttlMs };
    return value;
  }

  /**
   * Validates and saves a partial update; unknown names or bad values fail with 1001 listing each
   * field, and nothing is written. Returns the keys that were written. `inTransaction` runs in the
   * write's transaction with the written keys (audit row, `settings.changed` event).
   */
  async update(
    changes: Record<string, unknown>,
    actorUserId: string | null = null,
    inTransaction?: (tx: PoolClient, keys: SettingKey[]) => Promise<void>,
  ): Promise<SettingKey[]> {
    // No prototype: a name is the client's, and must name its field whatever it is.
    const errors = Object.create(null) as Record<string, string[]>;
    const rows: { key: SettingKey; value: unknown }[] = [];
    for (const [key, raw] of Object.entries(changes)) {
      if (!isSettingKey(key)) {
        errors[key] = ['unknown setting'];
        continue;
      }
      const parsed = SETTING_DEFINITIONS[key].schema.safeParse(raw);
      if (!parsed.success) {
        errors[key] = parsed.error.issues.map((issue) => issue.message);
        continue;
      }
      const tooLong =
        key === 'model_endpoint_allowlist' ? allowlistTooLong(parsed.data, this.allowlistMaxEntries) : null;
      if (tooLong) {
        errors[key] = [tooLong];
        continue;
      }
      rows.push({ key, value: isSecretSetting(key) ? this.seal(parsed.data) : parsed.data });
    }
    if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
    const keys = rows.map((row) => row.key);
    await writeSettings(this.pool, rows, actorUserId, inTransaction && ((tx) => inTransaction(tx, keys)));
    this.invalidate();
    return keys;
  }

  /**
   * A secret at rest: empty values (`''`, `{}`) stay as they are so "not set" needs no key; strings
   * are encrypted as is, structured values (webhook_headers) as their JSON.
   */
  private seal(value: unknown): unknown {
    if (isEmptySecret(value)) return value;
    return this.secrets.encrypt(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /**
   * The inverse of `seal`. A value that is not ciphertext was saved before its setting became a
   * secret (the robot webhook URLs, webhook_headers): it is read as is and encrypted on its next
   * save (docs/identity.md).
   */
  private reveal(key: SettingKey, stored: unknown): unknown {
    if (typeof stored !== 'string' || !SecretBox.isCiphertext(stored)) return stored;
    const plaintext = this.secrets.decrypt(stored);
    return typeof SETTING_DEFINITIONS[key].default === 'string' ? plaintext : JSON.parse(plaintext);
  }

  invalidate(): void {
    this.cached = undefined;
  }
}
