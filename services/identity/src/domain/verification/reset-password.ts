import type { SessionRegistry } from '@platform/auth';
import type { RequestOrigin } from '@platform/grpc';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import {
  consumeOpenTokens,
  consumeToken,
  findOpenToken,
  findTokenByLinkHash,
  findUserByEmail,
  recordFailedAttempt,
  setPasswordAfterReset,
  type VerificationTokenRow,
} from '../../data/verification-repository.js';
import { notifyUser } from '../identity-events.js';
import { endUserSessions } from '../admin-users/principal-changes.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import type { VerificationDeps } from './mail-request.js';
import { codeMatches, hashLinkToken, MAX_CODE_ATTEMPTS } from './verification-secrets.js';

/** Code flow: the mailed code with its address; link flow: the `token` of the mailed link. */
export type ResetProof = { email: string; code: string } | { token: string };

export interface ResetPasswordInput {
  /** The gateway guarantees one; a direct caller that gives none proves nothing (5005). */
  proof: ResetProof | undefined;
  newPassword: string;
}

export interface PasswordReset {
  password_reset: true;
  email: string;
}

const invalid = () => new BusinessError(ErrorCode.VERIFICATION_CODE_INVALID);
const userNotFound = () => BusinessError.named('user_not_found');

/**
 * The open, unexpired reset token the request proves; anything else is 5005 (rules 8 and 9), except
 * an address with no account in the code flow: 4000 (rule 9).
 */
async function provenResetToken(
  deps: VerificationDeps,
  input: ResetPasswordInput,
): Promise<VerificationTokenRow> {
  const { proof } = input;
  if (proof && 'token' in proof) {
    const token = await findTokenByLinkHash(deps.pool, hashLinkToken(proof.token));
    if (!token || token.purpose !== 'reset_password' || token.consumed_at) throw invalid();
    if (token.expires_at.getTime() <= Date.now()) throw invalid();
    return token;
  }
  if (!proof?.email || !proof.code) throw invalid();
  // Rule 9: an address with no account is "user not found", whatever the code.
  if (!(await findUserByEmail(deps.pool, proof.email))) throw userNotFound();
  const token = await findOpenToken(deps.pool, proof.email, 'reset_password');
  if (!token || token.expires_at.getTime() <= Date.now()) throw invalid();
  if (!codeMatches(token.code_hash, token.email, 'reset_password', proof.code)) {
    await recordFailedAttempt(deps.pool, token.id, MAX_CODE_ATTEMPTS);
    throw invalid();
  }
  return token;
}

/**
 * Rule 9: invalid code or token 5005, user gone 4000, password outside the policy 1001 with
 * `data.errors.new_password` (all HTTP 400). The policy is checked before the code is consumed,
 * so a weak password can be corrected with the same code. Success stores the new hash, lifts a
 * lockout (failed attempts, `locked_until`) and an admin-forced change, retires every open reset
 * code of the address, audits, and emits `security.password_changed` and `user.password_reset`.
 * Every access token issued before the reset ends at once (the user's sessions, and an attacker's).
 */
export async function resetPassword(
  deps: VerificationDeps & { sessions: SessionRegistry },
  input: ResetPasswordInput,
  meta: RequestOrigin,
): Promise<PasswordReset> {
  const token = await provenResetToken(deps, input);
  const user = await findUserByEmail(deps.pool, token.email);
  if (!user) throw userNotFound();
  const settings = await deps.settings.current();
  assertPasswordPolicy(input.newPassword, settings, 'new_password', meta.locale);
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await withTransaction(deps.pool, async (client) => {
    if (!(await consumeToken(client, token.id))) throw invalid();
    await consumeOpenTokens(client, user.email, 'reset_password');
    await setPasswordAfterReset(client, user.id, passwordHash);
    await writeAudit(client, {
      actorUserId: user.id,
      action: 'user.password_reset',
      targetType: 'user',
      targetId: user.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { method: input.proof && 'token' in input.proof ? 'link' : 'code' },
      requestId: meta.requestId,
    });
    const zh = (user.locale ?? meta.locale).startsWith('zh');
    const data = { username: user.username, ip: meta.ip };
    await notifyUser(client, {
      type: 'security.password_changed',
      userId: user.id,
      title: zh ? '密码已修改' : 'Your password was changed',
      content: zh
        ? '您的账号密码已通过邮箱重置。如果这不是您本人的操作，请立即联系管理员。'
        : 'Your password was reset by email. If this was not you, contact an administrator at once.',
      level: 'high',
      data,
    });
    await notifyUser(client, {
      type: 'user.password_reset',
      userId: user.id,
      title: zh ? '密码已重置' : 'Password reset',
      content: zh ? '您的密码已重置。' : 'Your password has been reset.',
      level: 'medium',
      data,
    });
  });
  await endUserSessions(deps, user.id);
  return { password_reset: true, email: user.email };
}
