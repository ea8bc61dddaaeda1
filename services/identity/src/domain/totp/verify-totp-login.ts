import type { RequestOrigin } from '@platform/grpc';
import { TokenError, type TokenClaims } from '@platform/auth';
import { BusinessError, ErrorCode } from '@platform/errors';
import { findTotpUser } from '../../data/totp-repository.js';
import { issueSession, type IssuedSession } from '../auth/issue-session.js';
import { checkTotpCode } from './check-totp-code.js';
import type { TotpDeps } from './totp-context.js';
import { peekTokenType } from './totp-caller.js';

export interface VerifyTotpLoginInput {
  tempToken: string;
  code: string;
  isBackupCode: boolean;
}

const tempTokenInvalid = () => BusinessError.named('temp_token_invalid');

async function isValidEnrollmentToken(deps: TotpDeps, token: string): Promise<boolean> {
  try {
    const claims = await deps.tokens.verify(token, 'totp_enrollment');
    const state = await deps.sessions.check(claims);
    return state !== 'revoked' && state !== 'ended';
  } catch (error) {
    if (error instanceof TokenError) return false;
    throw error;
  }
}

async function challengeClaims(deps: TotpDeps, tempToken: string): Promise<TokenClaims> {
  let claims: TokenClaims;
  try {
    claims = await deps.tokens.verify(tempToken, 'totp_challenge');
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    // Expiry is checked before the type, so only call it expired when it was a challenge token.
    const type = peekTokenType(tempToken);
    if (error.reason === 'expired' && type === 'totp_challenge') {
      throw BusinessError.named('temp_token_expired');
    }
    // A valid enrolment token belongs to a user who has no TOTP yet: the spec's 5313.
    if (type === 'totp_enrollment' && (await isValidEnrollmentToken(deps, tempToken))) {
      throw new BusinessError(ErrorCode.TOTP_NOT_ENABLED);
    }
    throw tempTokenInvalid();
  }
  // A challenge token finishes one login: it is revoked on success.
  const state = await deps.sessions.check(claims);
  if (state === 'revoked' || state === 'ended') throw tempTokenInvalid();
  return claims;
}

/**
 * POST /login/verify-totp, failures in the spec's order: temp token invalid 400/2001, expired
 * 400/2002, TOTP not enabled or secret missing 400/5313 (also for a valid enrolment temp token:
 * its user has no TOTP yet), throttled 400/5312 (`data.seconds`),
 * wrong code 400/5311. Success ends the login like password login step 8 (forced-change flags,
 * single session, audit, anomaly check) and revokes the temp token.
 */
export async function verifyTotpLogin(
  deps: TotpDeps,
  input: VerifyTotpLoginInput,
  meta: RequestOrigin,
): Promise<IssuedSession> {
  const claims = await challengeClaims(deps, input.tempToken);
  const user = await findTotpUser(deps.pool, claims.sub);
  if (!user) throw tempTokenInvalid();
  if (!user.totp_enabled || !user.totp_secret_enc) throw new BusinessError(ErrorCode.TOTP_NOT_ENABLED);
  // Deactivated during the 5 minutes since the password step: refused as password login would be.
  if (!user.is_active || user.approval_status !== 'approved') {
    throw new BusinessError(ErrorCode.INACTIVE_USER, { httpStatus: 400 });
  }

  const used = await checkTotpCode(deps, deps.throttle, {
    userId: user.id,
    secretEnc: user.totp_secret_enc,
    code: input.code,
    kind: input.isBackupCode ? 'backup_code' : 'totp',
  });
  await deps.sessions.revoke(claims);
  return issueSession(deps, user, { ...meta, method: used });
}
