import { BusinessError, ErrorCode } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import { savePendingSecret } from '../../data/totp-repository.js';
import type { TotpDeps, TotpRequestMeta } from './totp-context.js';
import { resolveTotpCaller } from './totp-caller.js';
import { newTotpSecret, otpauthUrl } from './totp-codes.js';

export interface TotpSetup {
  secret: string;
  otpauth_url: string;
}

/**
 * POST /totp/setup: a new secret, kept encrypted as the PENDING secret until a code proves the
 * authenticator has it (enable). Refused with 5314 when TOTP is already on: changing the secret
 * means disabling first, which needs a valid code.
 */
export async function setupTotp(
  deps: TotpDeps,
  credential: string,
  meta: TotpRequestMeta,
): Promise<TotpSetup> {
  const { user, enrollment } = await resolveTotpCaller(deps, credential);
  if (user.totp_enabled) throw new BusinessError(ErrorCode.TOTP_ALREADY_ENABLED);
  const secret = newTotpSecret();
  await savePendingSecret(deps.pool, user.id, deps.secrets.encrypt(secret));
  await writeAudit(deps.pool, {
    actorUserId: user.id,
    action: 'totp.setup_started',
    targetType: 'user',
    targetId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    details: { via: enrollment ? 'enrollment_token' : 'access_token' },
  });
  return { secret, otpauth_url: otpauthUrl(secret, user.username) };
}
