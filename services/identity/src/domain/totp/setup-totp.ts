import type { RequestOrigin } from '@platform/grpc';
import { savePendingSecret } from '../../data/totp-repository.js';
import { writeTotpAudit, type TotpDeps } from './totp-context.js';
import { resolveEnrollingCaller } from './totp-caller.js';
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
  credential: string | undefined,
  meta: RequestOrigin,
): Promise<TotpSetup> {
  const { user, via } = await resolveEnrollingCaller(deps, credential);
  const secret = newTotpSecret();
  await savePendingSecret(deps.pool, user.id, deps.secrets.encrypt(secret));
  await writeTotpAudit(deps.pool, user.id, 'totp.setup_started', meta, { via });
  return { secret, otpauth_url: otpauthUrl(secret, user.username) };
}
