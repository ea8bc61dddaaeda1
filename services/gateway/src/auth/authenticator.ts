import { randomUUID } from 'node:crypto';
import { TokenError, type SessionRegistry, type TokenService } from '@platform/auth';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';
import type { AuthRequirement } from '../routes/route-definition.js';
import type { ApiKeyCheck } from './api-key-check.js';
import { VerifiedAccessTokens } from './verified-tokens.js';

/** A user as the gateway needs to know it on every authenticated request. */
export interface ResolvedUser extends Principal {
  is_active: boolean;
  approval_status: 'pending' | 'approved';
}

/**
 * Looks a user up by id (identity over gRPC, with a short cache); null when the user is gone. With
 * `revision` (the user's principal revision in Redis) a cached answer is used only when it was
 * cached under that same revision.
 */
export interface PrincipalResolver {
  resolve(userId: string, revision?: string): Promise<ResolvedUser | null>;
}

/** Verifies an API key presented as a bearer credential (the apikeys service). */
export interface ApiKeyVerifier {
  looksLikeApiKey(credential: string): boolean;
  /** The key's owner as an `api_key` principal, or a BusinessError (2001, 2002, 3000). */
  verify(credential: string, check: ApiKeyCheck): Promise<Principal>;
}

export interface Authenticated {
  principal: Principal;
  credential: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The spec's authentication mapping, in order: no credentials 401/2000; a JWT that cannot be
 * decoded, has a bad signature or has expired 403/2003; a revoked or superseded token, or one issued
 * before its user's sessions were ended (password changed or reset, deactivation) 401/2001;
 * a user that is gone 401/2001; an inactive or pending user 401/2004; a missing permission 403/3000.
 */
export class Authenticator {
  private readonly accessTokens: VerifiedAccessTokens;

  constructor(
    tokens: TokenService,
    private readonly sessions: SessionRegistry,
    private readonly principals: PrincipalResolver,
    private readonly apiKeys?: ApiKeyVerifier,
    /** Resolves when the revocation store has had its first chance to connect (a process just started). */
    private readonly storeStarted: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.accessTokens = new VerifiedAccessTokens(tokens);
  }

  static bearerCredential(authorization: string | undefined): string | undefined {
    return authorization ? BEARER.exec(authorization)?.[1] : undefined;
  }

  async authenticate(
    authorization: string | undefined,
    requirement: Exclude<AuthRequirement, 'public'>,
    permission?: string,
    apiKeyCheck?: ApiKeyCheck,
  ): Promise<Authenticated> {
    const credential = Authenticator.bearerCredential(authorization);
    if (!credential) throw new BusinessError(ErrorCode.UNAUTHORIZED);
    await this.storeStarted();

    const isApiKey = this.apiKeys?.looksLikeApiKey(credential) ?? false;
    // JWT-only routes (key management among them) refuse API keys explicitly: 403 / 3000.
    if (isApiKey && requirement !== 'user_or_api_key') throw BusinessError.named('api_key_not_allowed');
    const principal =
      isApiKey && this.apiKeys
        ? await this.apiKeys.verify(credential, apiKeyCheck ?? { scope: '' })
        : await this.authenticateJwt(credential);

    if (permission && principal.auth_method === 'jwt' && !hasPermission(principal, permission)) {
      throw new BusinessError(ErrorCode.PERMISSION_DENIED);
    }
    return { principal, credential };
  }

  private async authenticateJwt(token: string): Promise<Principal> {
    let claims;
    try {
      claims = await this.accessTokens.verify(token);
    } catch (error) {
      if (error instanceof TokenError) {
        throw BusinessError.named('token_invalid');
      }
      throw error;
    }
    // Revocation, ended sessions and the principal revision: one Redis round trip.
    const { state, principalRevision } = await this.sessions
      .checkWithRevision(claims, randomUUID())
      .catch((error: unknown) => {
        // Fail closed: without the revocation list a logged-out token could pass.
        throw BusinessError.named('service_unavailable', { cause: error });
      });
    if (state === 'revoked') throw BusinessError.named('token_revoked');
    if (state === 'superseded') throw BusinessError.named('session_expired_new_login');
    const user = await this.principals.resolve(claims.sub, principalRevision);
    if (!user) throw new BusinessError(ErrorCode.INVALID_TOKEN);
    // An inactive user is told so (2004) even when the deactivation also ended the token.
    if (!user.is_active || user.approval_status !== 'approved')
      throw new BusinessError(ErrorCode.INACTIVE_USER);
    if (state === 'ended') throw BusinessError.named('token_revoked');
    const { is_active: _active, approval_status: _approval, ...principal } = user;
    return { ...principal, auth_method: 'jwt' };
  }
}
