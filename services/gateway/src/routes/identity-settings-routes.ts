import { isReservedObjectKey, SITE_SETTINGS_UPDATE_RULES } from '@platform/contracts';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { requestOrigin } from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';

const { maxKeys, maxKeyLength } = SITE_SETTINGS_UPDATE_RULES;

/**
 * The shapes a setting value can take, each bounded by the largest any setting allows (the
 * 64 KiB webhook body template; up to 1000 allowlist origins, MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES; 50 webhook
 * headers).
 */
const settingValue = z.union([
  z.null(),
  z.boolean(),
  z.number(),
  z.string().max(65_536),
  z.array(z.string().max(2048)).max(1000),
  z.record(z.string().max(256), z.string().max(4096)),
]);

/**
 * Names and exact bounds are validated by the identity service (it owns the setting definitions):
 * the gateway only bounds the shape so an oversized or exotic body never reaches it.
 */
const settingsRecord = z.record(z.string().min(1).max(maxKeyLength), settingValue);

/**
 * Runs on the body as parsed from JSON, before the record parses any value: too many names is one
 * 1001 (`_`) without per-key work, and `__proto__` / `constructor` / `prototype` are refused by
 * name (the record would silently drop `__proto__`). Any issue here stops the parse.
 */
function refuseHostileKeys(body: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const names = Object.keys(body);
  if (names.length > maxKeys) {
    ctx.addIssue({ code: 'custom', message: `at most ${maxKeys} settings per update` });
    return body;
  }
  for (const name of names.filter(isReservedObjectKey)) {
    ctx.addIssue({ code: 'custom', path: [name], message: 'reserved name, not a setting' });
  }
  return body;
}

const settingsUpdateBody = z.preprocess(refuseHostileKeys, settingsRecord);

const settingsView = z
  .record(z.string(), z.unknown())
  .describe('Every setting by its spec name; secrets are null with a sibling `<name>_set` boolean');

/** Site settings admin API. `GetEffectiveSettings` (secrets decrypted) is internal and not routed. */
export const identitySettingsRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, { settings?: Record<string, unknown> }>({
    method: 'get',
    path: '/admin/site-settings',
    summary: 'Read every site setting (secrets masked)',
    tags: ['admin-settings'],
    auth: 'user',
    permission: 'admin:settings:read',
    response: settingsView,
    invoke: (_input, { clients, principal }) => clients.settings.call('getSiteSettings', {}, { principal }),
    present: (view) => view.settings ?? {},
  }),
  defineRoute<
    ServiceClients,
    undefined,
    undefined,
    Record<string, unknown>,
    { settings?: Record<string, unknown> }
  >({
    method: 'put',
    path: '/admin/site-settings',
    summary: 'Update site settings by name (partial)',
    tags: ['admin-settings'],
    auth: 'user',
    permission: 'admin:settings:update',
    body: settingsUpdateBody,
    response: settingsView,
    invoke: ({ body }, { clients, principal, ip, userAgent }) =>
      clients.settings.call(
        'updateSiteSettings',
        { changes: body, origin: requestOrigin({ ip, userAgent }) },
        { principal },
      ),
    present: (view) => view.settings ?? {},
  }),
];
