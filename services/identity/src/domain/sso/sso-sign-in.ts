import type { RequestOrigin } from '@platform/grpc';
import type { PublicSsoProvider } from '@platform/contracts/platform/identity/v1/sso';
import { BusinessError, ErrorCode } from '@platform/errors';
import * as oidc from 'openid-client';
import { findProviderByName, listProviders, type SsoProviderRow } from '../../data/sso-repository.js';
import { savePendingLogin, takePendingLogin } from '../../data/sso-state-store.js';
import { completeLogin, type LoginOutcome } from '../auth/complete-login.js';
import type { SessionUser } from '../auth/issue-session.js';
import type { SsoDeps } from './sso-context.js';
import { resolveSsoAccount, type SsoIdentity } from './sso-account.js';
import { callbackUrl, rowSettings } from './sso-provider-view.js';

const providerNotFound = () => new BusinessError(ErrorCode.SSO_PROVIDER_NOT_FOUND);
const stateInvalid = () => BusinessError.named('sso_state_invalid');

/** Enabled providers for the login page; none while SSO is switched off. */
export async function listPublicProviders(deps: SsoDeps): Promise<PublicSsoProvider[]> {
  const settings = await deps.settings.current();
  if (!settings.sso_enabled) return [];
  const rows = await listProviders(deps.pool, true);
  return rows.map((row) => ({ name: row.name, display_name: row.display_name }));
}

/** 6300 when SSO is off, or the provider is unknown or disabled. */
async function usableProvider(deps: SsoDeps, name: string): Promise<SsoProviderRow> {
  const settings = await deps.settings.current();
  if (!settings.sso_enabled) throw providerNotFound();
  const provider = await findProviderByName(deps.pool, name);
  if (!provider?.enabled) throw providerNotFound();
  return provider;
}

/**
 * Authorization code flow with PKCE (S256), `state` and `nonce`: the three secrets are kept in
 * Redis for 10 minutes under the state's hash and taken once by the callback.
 */
export async function startSsoLogin(deps: SsoDeps, providerName: string): Promise<string> {
  const provider = await usableProvider(deps, providerName);
  const config = await deps.oidc.get(rowSettings(deps, provider));
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirectUri = callbackUrl(deps, provider.name);
  await savePendingLogin(deps.redis, state, {
    providerId: provider.id,
    providerName: provider.name,
    codeVerifier,
    nonce,
    redirectUri,
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return url.href;
}

function authenticationFailed(deps: SsoDeps, provider: SsoProviderRow, error: unknown): BusinessError {
  const providerError = error instanceof oidc.AuthorizationResponseError ? error.error : undefined;
  deps.logger.warn({ err: error, provider: provider.name }, 'sso callback: authentication failed');
  return BusinessError.named('sso_authentication_failed', {
    data: providerError ? { provider_error: providerError } : {},
  });
}

/**
 * The callback: provider check (6300) → state taken once (1002 `sso_state_invalid`) → code
 * exchange and ID token validation by openid-client (signature against the provider's JWKS, iss,
 * aud, exp, nonce; 1002 `sso_authentication_failed`) → account (see sso-account.ts) → login
 * steps 4-8 as after a password (2004, TOTP, 5004, token).
 */
export async function completeSsoLogin(
  deps: SsoDeps,
  providerName: string,
  params: Record<string, string>,
  meta: RequestOrigin,
): Promise<LoginOutcome> {
  const provider = await usableProvider(deps, providerName);
  const pending = params.state ? await takePendingLogin(deps.redis, params.state) : undefined;
  if (!pending || pending.providerId !== provider.id) throw stateInvalid();

  const config = await deps.oidc.get(rowSettings(deps, provider));
  const currentUrl = new URL(pending.redirectUri);
  for (const [name, value] of Object.entries(params)) currentUrl.searchParams.set(name, value);
  let identity: SsoIdentity;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: params.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let profile: Record<string, unknown> = claims;
    // Many providers put profile claims only in userinfo; its `sub` must match the ID token's.
    if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
      profile = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    identity = toIdentity(claims.sub, profile);
  } catch (error) {
    throw authenticationFailed(deps, provider, error);
  }

  const settings = await deps.settings.current();
  const { account } = await resolveSsoAccount(deps, provider, identity, settings, meta);
  return completeLogin(deps, account, settings, meta, 'sso', ssoSessionUser(account));
}

function toIdentity(subject: string, profile: Record<string, unknown>): SsoIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    subject,
    email: text(profile.email),
    emailVerified: profile.email_verified === true,
    preferredUsername: text(profile.preferred_username),
    name: text(profile.name),
    locale: text(profile.locale),
  };
}

/**
 * The forced-change flags concern the local password: an account without one (SSO-only) has
 * nothing to change, so it is never told to.
 */
function ssoSessionUser(account: SessionUser & { password_hash: string | null }): SessionUser {
  if (account.password_hash) return account;
  return { ...account, force_password_change: false, password_changed_at: new Date() };
}
