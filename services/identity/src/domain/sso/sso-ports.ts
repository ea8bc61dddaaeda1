import type * as oidc from 'openid-client';

export interface OidcProviderSettings {
  id: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `updated_at` of the row: a changed provider never uses a stale configuration. */
  version: string;
}

/** OpenID Connect discovery, as the SSO use cases need it (adapters/oidc-client.ts implements it). */
export interface OidcDiscovery {
  /** Discovery without caching: what an administrator's create/update must pass (6304). */
  validate(settings: OidcProviderSettings): Promise<void>;
  /** The provider's configuration for its current version (cached by the adapter). */
  get(settings: OidcProviderSettings): Promise<oidc.Configuration>;
}
