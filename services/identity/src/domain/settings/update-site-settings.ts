import { isReservedObjectKey, SITE_SETTINGS_UPDATE_RULES } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import { SETTINGS_CHANGED } from '@platform/settings-client';
import { writeAudit } from '../../data/audit-repository.js';
import { publishDomainEvent } from '../identity-events.js';
import type { IdentityDependencies } from '../../deps.js';
import { adminSettingsView, isSecretName, isSecretSetFlag } from './admin-settings-view.js';

export interface UpdateSettingsInput {
  changes: Record<string, unknown>;
  actorUserId: string;
  ip: string;
  userAgent: string;
  requestId: string;
}

/**
 * Partial update by spec names. So a client can PUT back what it read, `<secret>_set` flags (when
 * booleans) and `<secret>_hint` echoes are ignored and a secret given as `null` keeps its value; `""` clears a secret. Every
 * other name goes to the store, which rejects unknown names and bad values with 1001 per field.
 * Audited by name only (never values) and announced as `settings.changed` so every replica of
 * every service drops its cache.
 */
export async function updateSiteSettings(deps: IdentityDependencies, input: UpdateSettingsInput) {
  refuseByNames(input.changes);
  const changes = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(input.changes)) {
    if (isSecretSetFlag(name, value)) continue;
    if (isSecretName(name) && value === null) continue;
    changes[name] = value;
  }
  // The audit row and `settings.changed` commit with the settings themselves.
  const changedKeys = await deps.settings.update(changes, input.actorUserId, async (tx, keys) => {
    if (keys.length === 0) return;
    await writeAudit(tx, {
      actorUserId: input.actorUserId,
      action: 'settings.update',
      targetType: 'site_settings',
      ip: input.ip,
      userAgent: input.userAgent,
      requestId: input.requestId,
      details: { keys },
    });
    await publishDomainEvent(tx, SETTINGS_CHANGED, 'site_settings', { keys });
  });
  return { settings: adminSettingsView(await deps.settings.current()), changed_keys: changedKeys };
}

/**
 * An update judged by its names alone, before any value is (the gateway checks the same at the
 * edge; this covers callers that bypass it): more than `maxKeys` names is one 1001 (`_`), and
 * `__proto__` / `constructor` / `prototype` are refused by name. gRPC's Struct decoding already
 * drops a `__proto__` key, so that one is the gateway's to refuse; an in-process caller's own
 * `__proto__` property is refused here.
 */
function refuseByNames(changes: Record<string, unknown>): void {
  const names = Object.keys(changes);
  const { maxKeys } = SITE_SETTINGS_UPDATE_RULES;
  if (names.length > maxKeys) {
    throw BusinessError.validation({ _: [`at most ${maxKeys} settings per update`] }, { httpStatus: 400 });
  }
  const reserved = names.filter(isReservedObjectKey);
  if (reserved.length === 0) return;
  const errors = Object.create(null) as Record<string, string[]>;
  for (const name of reserved) errors[name] = ['reserved name, not a setting'];
  throw BusinessError.validation(errors, { httpStatus: 400 });
}
