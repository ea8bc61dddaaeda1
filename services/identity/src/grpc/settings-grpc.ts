import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { internalOnly, readOrigin, registration } from '@platform/grpc';
import { adminSettingsView, effectiveSettings } from '../domain/settings/admin-settings-view.js';
import { updateSiteSettings } from '../domain/settings/update-site-settings.js';
import { requirePermission } from '@platform/rbac';
import { PASSWORD_MAX_LENGTH } from '../domain/auth/password-policy.js';
import type { IdentityDependencies } from '../deps.js';
import { BusinessError, ErrorCode } from '@platform/errors';
import { EFFECTIVE_SETTINGS_SCOPE, INTERNAL_CALLERS } from './internal-callers.js';

export const SETTINGS_SERVICE_NAME = 'platform.identity.v1.SettingsService';

/** The keys a caller reads: what it asked for, within its scope (EFFECTIVE_SETTINGS_SCOPE). */
function scopedKeys(caller: string | undefined, keys: string[]): readonly string[] {
  const scope = caller === undefined ? undefined : EFFECTIVE_SETTINGS_SCOPE[caller];
  if (!scope) return keys;
  const outside = keys.filter((key) => !scope.includes(key));
  if (outside.length > 0) {
    throw new BusinessError(ErrorCode.PERMISSION_DENIED, {
      data: { reason: 'settings_key_not_allowed', keys: outside },
    });
  }
  return keys.length > 0 ? keys : scope;
}

/** Site settings: the admin read/update and the internal effective read for other services. */
export function settingsGrpc(deps: IdentityDependencies) {
  const service = registration(SETTINGS_SERVICE_NAME, settingsV1.SettingsServiceService, {
    getSiteSettings: async (_request, context) => {
      requirePermission(context.principal, 'admin:settings:read');
      return { settings: adminSettingsView(await deps.settings.current()), changed_keys: [] };
    },
    updateSiteSettings: async (request, context) => {
      const actor = requirePermission(context.principal, 'admin:settings:update');
      return updateSiteSettings(deps, {
        changes: request.changes ?? {},
        actorUserId: actor.user_id,
        ...readOrigin(request.origin, context),
      });
    },
    // Internal: no principal, a service token (INTERNAL_CALLERS); never routed by the gateway.
    getEffectiveSettings: async (request, context) => ({
      settings: effectiveSettings(await deps.settings.current(), scopedKeys(context.caller, request.keys)),
    }),
    // Public: what the reset page shows is what the reset enforces (no secrets in it).
    getPasswordPolicy: async () => {
      const settings = await deps.settings.current();
      return {
        min_length: settings.password_min_length,
        require_uppercase: settings.password_require_uppercase,
        require_lowercase: settings.password_require_lowercase,
        require_digit: settings.password_require_digit,
        require_symbol: settings.password_require_symbol,
        max_length: PASSWORD_MAX_LENGTH,
      };
    },
  });
  return internalOnly(service, { getEffectiveSettings: INTERNAL_CALLERS.getEffectiveSettings });
}
