import { BusinessError, ErrorCode } from '@platform/errors';
import { consumeBackupCode } from '../../data/totp-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import { backupCodeHash, matchTotp, SIX_DIGITS } from './totp-codes.js';
import { TOTP_THROTTLE, type TotpThrottle } from './totp-throttle.js';

/** Which second factors a check accepts: authenticator code, backup code, or either by shape. */
export type CodeKind = 'totp' | 'backup_code' | 'either';

export interface CodeCheck {
  userId: string;
  /** SecretBox ciphertext of the secret the code must match (active or pending). */
  secretEnc: string;
  code: string;
  kind: CodeKind;
}

function rateLimited(seconds: number): BusinessError {
  return new BusinessError(ErrorCode.TOTP_RATE_LIMITED, { data: { seconds } });
}

/**
 * Every TOTP code check goes through here: it first takes a place in the per-user budget
 * atomically (a lock, or a budget taken by failures and checks in flight, answers 5312 with
 * `data.seconds` without evaluating the code), so a parallel burst has at most 5 codes evaluated;
 * a wrong code keeps its place (5311, or 5312 when it is the one that locks), a right one frees it
 * and the ones before it. TOTP codes are single-use per time step; backup codes are consumed.
 * `either` treats six digits as an authenticator code and anything else as a backup code.
 */
export async function checkTotpCode(
  deps: Pick<IdentityDependencies, 'pool' | 'secrets'>,
  throttle: TotpThrottle,
  check: CodeCheck,
): Promise<'totp' | 'backup_code'> {
  const reserved = await throttle.reserve(check.userId);
  if ('lockedSeconds' in reserved) throw rateLimited(reserved.lockedSeconds);

  const kind = check.kind === 'either' ? (SIX_DIGITS.test(check.code) ? 'totp' : 'backup_code') : check.kind;
  let accepted: boolean;
  if (kind === 'backup_code') {
    accepted =
      check.code.length > 0 &&
      (await consumeBackupCode(deps.pool, check.userId, backupCodeHash(check.userId, check.code)));
  } else {
    const secret = deps.secrets.decrypt(check.secretEnc);
    const step = await matchTotp(secret, check.code, await throttle.lastStep(check.userId));
    accepted = step !== null && (await throttle.claimStep(check.userId, step));
  }

  if (!accepted) {
    if (await throttle.settleFailure(check.userId, reserved.place))
      throw rateLimited(TOTP_THROTTLE.lockSeconds);
    throw new BusinessError(ErrorCode.TOTP_INVALID);
  }
  await throttle.settleSuccess(check.userId, reserved.place);
  return kind;
}
