import type { RequestOrigin } from '@platform/grpc';
import { TokenError } from '@platform/auth';
import { BusinessError } from '@platform/errors';
import { writeAudit } from '../../data/audit-repository.js';
import type { AuthDeps } from './auth-context.js';

/**
 * `POST /logout`: blacklists the presented access token until it would have expired anyway. The
 * gateway authenticated it already; it is verified again here because identity trusts no caller
 * with a token it did not check itself.
 */
export async function logout(deps: AuthDeps, token: string, meta: RequestOrigin): Promise<void> {
  let claims;
  try {
    claims = await deps.tokens.verify(token, 'access');
  } catch (error) {
    if (error instanceof TokenError) {
      throw BusinessError.named('token_invalid');
    }
    throw error;
  }
  await deps.sessions.revoke(claims);
  await writeAudit(deps.pool, {
    actorUserId: claims.sub,
    action: 'logout',
    targetType: 'user',
    targetId: claims.sub,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    details: { jti: claims.jti },
  });
}
