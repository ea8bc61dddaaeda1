import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { requestOrigin } from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';

/** More than every setting and its `_set` echo; larger bodies are never legitimate. */
const MAX_SETTINGS_PER_UPDATE = 150;

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
const settingsUpdateBody = z
  .record(z.string().min(1).max(100), settingValue)
  .refine((changes) => Object.keys(changes).length <= MAX_SETTINGS_PER_UPDATE, {
    message: `at most ${MAX_SETTINGS_PER_UPDATE} settings per update`,
  });

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
