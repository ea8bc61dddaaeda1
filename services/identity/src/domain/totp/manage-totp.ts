import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import {
  clearTotp,
  countUnusedBackupCodes,
  findTotpUser,
  replaceBackupCodes,
  type TotpUserRow,
} from '../../data/totp-repository.js';
import { checkTotpCode } from './check-totp-code.js';
import type { TotpDeps, TotpRequestMeta } from './totp-context.js';
import { backupCodeHash, newBackupCodes } from './totp-codes.js';

/** The caller's account with TOTP on (5313 otherwise). The gateway authenticated the caller. */
async function enabledUser(
  deps: TotpDeps,
  userId: string,
): Promise<TotpUserRow & { totp_secret_enc: string }> {
  const user = await findTotpUser(deps.pool, userId);
  if (!user) throw new BusinessError(ErrorCode.INVALID_TOKEN);
  if (!user.totp_enabled || !user.totp_secret_enc) throw new BusinessError(ErrorCode.TOTP_NOT_ENABLED);
  return { ...user, totp_secret_enc: user.totp_secret_enc };
}

/** POST /totp/disable: an authenticator code or a backup code; drops the secret and every backup code. */
export async function disableTotp(
  deps: TotpDeps,
  userId: string,
  code: string,
  meta: TotpRequestMeta,
): Promise<void> {
  const user = await enabledUser(deps, userId);
  const used = await checkTotpCode(deps, deps.throttle, {
    userId,
    secretEnc: user.totp_secret_enc,
    code,
    kind: 'either',
  });
  await withTransaction(deps.pool, async (tx) => {
    await clearTotp(tx, userId);
    await writeAudit(tx, {
      actorUserId: userId,
      action: 'totp.disabled',
      targetType: 'user',
      targetId: userId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      requestId: meta.requestId,
      details: { verified_with: used },
    });
  });
}

/** POST /totp/regenerate-backup-codes: a valid code (either kind) replaces all backup codes. */
export async function regenerateBackupCodes(
  deps: TotpDeps,
  userId: string,
  code: string,
  meta: TotpRequestMeta,
): Promise<string[]> {
  const user = await enabledUser(deps, userId);
  const used = await checkTotpCode(deps, deps.throttle, {
    userId,
    secretEnc: user.totp_secret_enc,
    code,
    kind: 'either',
  });
  const codes = newBackupCodes();
  await withTransaction(deps.pool, async (tx) => {
    await replaceBackupCodes(
      tx,
      userId,
      codes.map((c) => backupCodeHash(userId, c)),
    );
    await writeAudit(tx, {
      actorUserId: userId,
      action: 'totp.backup_codes_regenerated',
      targetType: 'user',
      targetId: userId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      requestId: meta.requestId,
      details: { verified_with: used },
    });
  });
  return codes;
}

/** GET /totp/status. */
export async function getTotpStatus(
  deps: TotpDeps,
  userId: string,
): Promise<{ enabled: boolean; backup_codes_remaining: number }> {
  const user = await findTotpUser(deps.pool, userId);
  if (!user) throw new BusinessError(ErrorCode.INVALID_TOKEN);
  return {
    enabled: user.totp_enabled,
    backup_codes_remaining: user.totp_enabled ? await countUnusedBackupCodes(deps.pool, userId) : 0,
  };
}
