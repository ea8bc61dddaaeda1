import type { RequestOrigin } from '@platform/grpc';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { clearTotp, countUnusedBackupCodes, replaceBackupCodes } from '../../data/totp-repository.js';
import { checkTotpCode } from './check-totp-code.js';
import { writeTotpAudit, type TotpDeps } from './totp-context.js';
import { requireTotpUser } from './totp-caller.js';
import { backupCodeHash, newBackupCodes } from './totp-codes.js';

/**
 * The caller's account must have TOTP on (5313 otherwise; the gateway authenticated the caller)
 * and `code` must be a valid authenticator or backup code. Returns which kind it was.
 */
async function checkCodeOfEnabledUser(deps: TotpDeps, userId: string, code: string) {
  const user = await requireTotpUser(deps, userId);
  if (!user.totp_enabled || !user.totp_secret_enc) throw new BusinessError(ErrorCode.TOTP_NOT_ENABLED);
  return checkTotpCode(deps, deps.throttle, {
    userId,
    secretEnc: user.totp_secret_enc,
    code,
    kind: 'either',
  });
}

/** POST /totp/disable: an authenticator code or a backup code; drops the secret and every backup code. */
export async function disableTotp(
  deps: TotpDeps,
  userId: string,
  code: string,
  meta: RequestOrigin,
): Promise<void> {
  const used = await checkCodeOfEnabledUser(deps, userId, code);
  await withTransaction(deps.pool, async (tx) => {
    await clearTotp(tx, userId);
    await writeTotpAudit(tx, userId, 'totp.disabled', meta, { verified_with: used });
  });
}

/** POST /totp/regenerate-backup-codes: a valid code (either kind) replaces all backup codes. */
export async function regenerateBackupCodes(
  deps: TotpDeps,
  userId: string,
  code: string,
  meta: RequestOrigin,
): Promise<string[]> {
  const used = await checkCodeOfEnabledUser(deps, userId, code);
  const codes = newBackupCodes();
  await withTransaction(deps.pool, async (tx) => {
    await replaceBackupCodes(
      tx,
      userId,
      codes.map((c) => backupCodeHash(userId, c)),
    );
    await writeTotpAudit(tx, userId, 'totp.backup_codes_regenerated', meta, { verified_with: used });
  });
  return codes;
}

/** GET /totp/status. */
export async function getTotpStatus(
  deps: TotpDeps,
  userId: string,
): Promise<{ enabled: boolean; backup_codes_remaining: number }> {
  const user = await requireTotpUser(deps, userId);
  return {
    enabled: user.totp_enabled,
    backup_codes_remaining: user.totp_enabled ? await countUnusedBackupCodes(deps.pool, userId) : 0,
  };
}
