import * as totpV1 from '@platform/contracts/platform/identity/v1/totp';
import { readOrigin } from '@platform/grpc';
import { registration } from '@platform/grpc';
import type { IdentityDependencies } from '../deps.js';
import { sessionMessage } from './identity-messages.js';
import { requirePrincipal } from '@platform/rbac';
import { enableTotp } from '../domain/totp/enable-totp.js';
import { disableTotp, getTotpStatus, regenerateBackupCodes } from '../domain/totp/manage-totp.js';
import { setupTotp } from '../domain/totp/setup-totp.js';
import type { TotpDeps } from '../domain/totp/totp-context.js';
import { TotpThrottle } from '../domain/totp/totp-throttle.js';
import { verifyTotpLogin } from '../domain/totp/verify-totp-login.js';

export const TOTP_SERVICE_NAME = 'platform.identity.v1.TotpService';

/** TOTP enrollment and management, and the second step of password login. */
export function totpGrpc(identity: IdentityDependencies) {
  const deps: TotpDeps = { ...identity, throttle: new TotpThrottle(identity.redis) };
  return registration(TOTP_SERVICE_NAME, totpV1.TotpServiceService, {
    setupTotp: (request, context) => setupTotp(deps, request.credential, readOrigin(request.origin, context)),
    enableTotp: async (request, context) => {
      const enabled = await enableTotp(
        deps,
        { credential: request.credential, code: request.code },
        readOrigin(request.origin, context),
      );
      return {
        backup_codes: enabled.backup_codes,
        session: enabled.session ? sessionMessage(enabled.session) : undefined,
      };
    },
    disableTotp: async (request, context) => {
      const caller = requirePrincipal(context.principal);
      await disableTotp(deps, caller.user_id, request.code, readOrigin(request.origin, context));
      return {};
    },
    regenerateBackupCodes: async (request, context) => {
      const caller = requirePrincipal(context.principal);
      return {
        backup_codes: await regenerateBackupCodes(
          deps,
          caller.user_id,
          request.code,
          readOrigin(request.origin, context),
        ),
      };
    },
    getTotpStatus: (_request, context) => getTotpStatus(deps, requirePrincipal(context.principal).user_id),
    verifyTotpLogin: async (request, context) => {
      const input = {
        tempToken: request.temp_token,
        code: request.code,
        isBackupCode: request.is_backup_code,
      };
      return sessionMessage(await verifyTotpLogin(deps, input, readOrigin(request.origin, context)));
    },
  });
}
