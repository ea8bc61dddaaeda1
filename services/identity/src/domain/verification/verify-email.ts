import type { RequestOrigin } from '@platform/grpc';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import {
  consumeToken,
  findOpenToken,
  findTokenByLinkHash,
  markEmailVerified,
  recordFailedAttempt,
  type VerificationPurpose,
  type VerificationTokenRow,
} from '../../data/verification-repository.js';
import type { VerificationDeps } from './mail-request.js';
import { codeMatches, hashLinkToken, MAX_CODE_ATTEMPTS } from './verification-secrets.js';

export interface EmailVerified {
  verified: true;
  email: string;
}

type Deps = Pick<VerificationDeps, 'pool'>;

const invalid = () => new BusinessError(ErrorCode.VERIFICATION_CODE_INVALID);
const expired = () => new BusinessError(ErrorCode.VERIFICATION_CODE_EXPIRED);

/**
 * Code flow (rule 8): a wrong, consumed or unknown code → 5005 (a wrong one counts; the fifth
 * consumes the code); an expired code → 5006. Purpose `register` consumes the code and marks the
 * address verified. Purpose `reset_password` only checks the code and leaves it open, so the
 * web app can confirm it before asking for the new password, which `/reset-password` then
 * accepts with the same code.
 */
export async function verifyEmailCode(
  deps: Deps,
  input: { email: string; code: string; purpose: VerificationPurpose },
  meta: RequestOrigin,
): Promise<EmailVerified> {
  const token = await findOpenToken(deps.pool, input.email, input.purpose);
  if (!token) throw invalid();
  if (token.expires_at.getTime() <= Date.now()) throw expired();
  if (!codeMatches(token.code_hash, token.email, token.purpose, input.code)) {
    await recordFailedAttempt(deps.pool, token.id, MAX_CODE_ATTEMPTS);
    throw invalid();
  }
  return completeVerification(deps, token, meta, 'code', invalid);
}

/**
 * Link flow (`GET /verify?token=`), same result as the code flow; an unknown, consumed or
 * expired link token → 5006.
 */
export async function verifyEmailLink(
  deps: Deps,
  linkToken: string,
  meta: RequestOrigin,
): Promise<EmailVerified> {
  const token = await findTokenByLinkHash(deps.pool, hashLinkToken(linkToken));
  if (!token || token.consumed_at || token.expires_at.getTime() <= Date.now()) throw expired();
  return completeVerification(deps, token, meta, 'link', expired);
}

async function completeVerification(
  deps: Deps,
  token: VerificationTokenRow,
  meta: RequestOrigin,
  method: 'code' | 'link',
  lostRace: () => BusinessError,
): Promise<EmailVerified> {
  if (token.purpose === 'reset_password') return { verified: true, email: token.email };
  await withTransaction(deps.pool, async (client) => {
    // Single use even under concurrent requests: only one UPDATE finds the token open.
    if (!(await consumeToken(client, token.id))) throw lostRace();
    const user = await markEmailVerified(client, token.email);
    if (!user) throw BusinessError.named('user_not_found');
    await writeAudit(client, {
      actorUserId: user.id,
      action: 'user.email_verified',
      targetType: 'user',
      targetId: user.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { method },
      requestId: meta.requestId,
    });
  });
  return { verified: true, email: token.email };
}
