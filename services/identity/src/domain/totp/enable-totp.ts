import type { RequestOrigin } from '@platform/grpc';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { activatePendingSecret, replaceBackupCodes } from '../../data/totp-repository.js';
import { issueSession, type IssuedSession } from '../auth/issue-session.js';
import { checkTotpCode } from './check-totp-code.js';
import { writeTotpAudit, type TotpDeps } from './totp-context.js';
import { resolveEnrollingCaller } from './totp-caller.js';
import { backupCodeHash, newBackupCodes } from './totp-codes.js';

export interface TotpEnabled {
  backup_codes: string[];
  /** Only for an enrollment temp token: the login this enrollment completes. */
  session?: IssuedSession;
}

/**
 * POST /totp/enable: a code from the authenticator proves it holds the pending secret; the secret
 * becomes active and ten backup codes are issued (shown once, stored hashed). With an enrollment
 * temp token the login it interrupted completes: the temp token is revoked (single use) and a
 * full session is issued as password login would.
 */
export async function enableTotp(
  deps: TotpDeps,
  input: { credential: string | undefined; code: string },
  meta: RequestOrigin,
): Promise<TotpEnabled> {
  const { user, enrollment, via } = await resolveEnrollingCaller(deps, input.credential);
  const pending = user.totp_pending_secret_enc;
  if (!pending) throw BusinessError.named('totp_setup_not_started');

  await checkTotpCode(deps, deps.throttle, {
    userId: user.id,
    secretEnc: pending,
    code: input.code,
    kind: 'totp',
  });

  const backupCodes = newBackupCodes();
  await withTransaction(deps.pool, async (tx) => {
    // Lost a race with another enable or a newer setup: the code matched a secret no longer pending.
    if (!(await activatePendingSecret(tx, user.id, pending))) {
      throw new BusinessError(ErrorCode.TOTP_ALREADY_ENABLED);
    }
    await replaceBackupCodes(
      tx,
      user.id,
      backupCodes.map((code) => backupCodeHash(user.id, code)),
    );
    await writeTotpAudit(tx, user.id, 'totp.enabled', meta, { via });
  });

  if (!enrollment) return { backup_codes: backupCodes };
  await deps.sessions.revoke(enrollment);
  const session = await issueSession(deps, user, { ...meta, method: 'totp_enrollment' });
  return { backup_codes: backupCodes, session };
}
