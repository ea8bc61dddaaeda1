import type { SsoProviderRow } from '../../data/sso-repository.js';
import type { OidcProviderSettings } from './sso-ports.js';
import type { SsoDeps } from './sso-context.js';

/**
 * The redirect URI registered at the provider: the gateway's callback under PUBLIC_WEB_URL (the web
 * app's origin proxies `/api` to the gateway, the same convention as the verification links).
 */
export function callbackUrl(deps: Pick<SsoDeps, 'config'>, providerName: string): string {
  const base = deps.config.PUBLIC_WEB_URL.replace(/\/+$/, '');
  return `${base}/api/v1/sso/callback/${encodeURIComponent(providerName)}`;
}

/** Where a browser lands after the callback, with the login result in the URL fragment. */
export function completeUrl(deps: Pick<SsoDeps, 'config'>): string {
  return `${deps.config.PUBLIC_WEB_URL.replace(/\/+$/, '')}/sso/complete`;
}

export function rowSettings(deps: Pick<SsoDeps, 'secrets'>, row: SsoProviderRow): OidcProviderSettings {
  return {
    id: row.id,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecret: row.client_secret_enc ? deps.secrets.decrypt(row.client_secret_enc) : '',
    version: row.updated_at.toISOString(),
  };
}
