import { TokenError, type TokenClaims, type TokenType } from '@platform/auth';
import { BusinessError, ErrorCode } from '@platform/errors';
import { findTotpUser, type TotpUserRow } from '../../data/totp-repository.js';
import type { IdentityDependencies } from '../../deps.js';

/** Who is setting up TOTP: a signed-in user, or a login in its enrollment step. */
export interface TotpCaller {
  user: TotpUserRow;
  /** Present when the caller used a `totp_enrollment` temp token. */
  enrollment?: TokenClaims;
}

/**
 * The `typ` claim of a token that failed verification, read WITHOUT trusting it: it only picks
 * which error to report (an expired enrollment token is 5315, anything else is the JWT error).
 */
export function peekTokenType(token: string): TokenType | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload?.typ === 'string' ? payload.typ : undefined;
  } catch {
    return undefined;
  }
}

const tokenInvalid = () => BusinessError.named('token_invalid');

/** The account behind an authenticated caller (2001 when it is gone). */
export async function requireTotpUser(
  deps: Pick<IdentityDependencies, 'pool'>,
  userId: string,
): Promise<TotpUserRow> {
  const user = await findTotpUser(deps.pool, userId);
  if (!user) throw new BusinessError(ErrorCode.INVALID_TOKEN);
  return user;
}

async function activeUser(deps: Pick<IdentityDependencies, 'pool'>, userId: string): Promise<TotpUserRow> {
  const user = await requireTotpUser(deps, userId);
  if (!user.is_active || user.approval_status !== 'approved')
    throw new BusinessError(ErrorCode.INACTIVE_USER);
  return user;
}

/**
 * Setup and enable are public at the gateway (the gateway only knows access tokens) and verify
 * the bearer credential here, with the gateway's own rules for access tokens: none 401/2000;
 * undecodable, bad signature or expired 403/2003; logged out 401/2001; superseded by a
 * single-session login 401/2001; user gone 401/2001; inactive or pending 401/2004. An enrollment
 * temp token that expired gives 5315; one already used (revoked on enable) 401/2001.
 */
export async function resolveTotpCaller(
  deps: Pick<IdentityDependencies, 'pool' | 'tokens' | 'sessions'>,
  credential: string | undefined,
): Promise<TotpCaller> {
  if (!credential) throw new BusinessError(ErrorCode.UNAUTHORIZED);
  const type = peekTokenType(credential);

  if (type === 'totp_enrollment') {
    let claims: TokenClaims;
    try {
      claims = await deps.tokens.verify(credential, 'totp_enrollment');
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'expired') {
        throw new BusinessError(ErrorCode.TOTP_SETUP_EXPIRED);
      }
      if (error instanceof TokenError) throw tokenInvalid();
      throw error;
    }
    // Only the revocation entry matters for a temp token: a single-session pointer names access tokens.
    const state = await deps.sessions.check(claims);
    if (state === 'revoked' || state === 'ended') {
      throw BusinessError.named('token_revoked');
    }
    return { user: await activeUser(deps, claims.sub), enrollment: claims };
  }

  let claims: TokenClaims;
  try {
    claims = await deps.tokens.verify(credential, 'access');
  } catch (error) {
    if (error instanceof TokenError) throw tokenInvalid();
    throw error;
  }
  const state = await deps.sessions.check(claims);
  if (state === 'revoked' || state === 'ended') throw BusinessError.named('token_revoked');
  if (state === 'superseded') throw BusinessError.named('session_expired_new_login');
  return { user: await activeUser(deps, claims.sub) };
}

/**
 * A caller of setup or enable: TOTP must not be on yet (5314). `via` names the credential used,
 * for the audit row.
 */
export async function resolveEnrollingCaller(
  deps: Pick<IdentityDependencies, 'pool' | 'tokens' | 'sessions'>,
  credential: string | undefined,
): Promise<TotpCaller & { via: 'enrollment_token' | 'access_token' }> {
  const caller = await resolveTotpCaller(deps, credential);
  if (caller.user.totp_enabled) throw new BusinessError(ErrorCode.TOTP_ALREADY_ENABLED);
  return { ...caller, via: caller.enrollment ? 'enrollment_token' : 'access_token' };
}
