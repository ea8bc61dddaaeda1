import { BusinessError, ErrorCode } from '@platform/errors';
import * as oidc from 'openid-client';
import { LRUCache } from 'lru-cache';
import type { OidcDiscovery, OidcProviderSettings } from '../domain/sso/sso-ports.js';

/** Seconds one discovery (and any later request of the configuration) may take. */
const HTTP_TIMEOUT_SECONDS = 5;
/** Discovered metadata is reused this long per provider version; key rotation is handled by the JWKS cache. */
const CACHE_MS = 10 * 60_000;

export interface OidcOptions {
  /** SSO_ALLOW_INSECURE_ISSUERS: accept `http://` issuers (loopback test providers). */
  allowInsecure: boolean;
}

const invalidConfiguration = (reason: string) =>
  new BusinessError(ErrorCode.SSO_INVALID_CONFIGURATION, { data: { field: 'issuer', reason } });

/**
 * Discovers the issuer (`/.well-known/openid-configuration`, whose `issuer` must equal the
 * configured one) and builds the client configuration. Every later request of the flow goes to
 * endpoints this document names; nothing a browser sends chooses a URL. Fails with 6304.
 */
export async function discoverProvider(
  settings: OidcProviderSettings,
  options: OidcOptions,
): Promise<oidc.Configuration> {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw invalidConfiguration('issuer_not_a_url');
  }
  if (issuer.protocol !== 'https:' && !(options.allowInsecure && issuer.protocol === 'http:')) {
    throw invalidConfiguration('issuer_must_use_https');
  }
  const execute = options.allowInsecure ? [oidc.allowInsecureRequests] : [];
  let discovered: oidc.Configuration;
  try {
    discovered = await oidc.discovery(issuer, settings.clientId, undefined, undefined, {
      execute,
      timeout: HTTP_TIMEOUT_SECONDS,
    });
  } catch (error) {
    throw invalidConfiguration(`discovery_failed: ${(error as Error).message}`.slice(0, 300));
  }
  const metadata = discovered.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
    throw invalidConfiguration('discovery_incomplete');
  }
  if (metadata.response_types_supported && !metadata.response_types_supported.includes('code')) {
    throw invalidConfiguration('code_flow_not_supported');
  }
  const methods = metadata.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) throw invalidConfiguration('pkce_s256_not_supported');

  // client_secret_basic is the OIDC default; post only when the provider does not take basic.
  const authMethods = metadata.token_endpoint_auth_methods_supported;
  const clientAuth =
    authMethods && !authMethods.includes('client_secret_basic') && authMethods.includes('client_secret_post')
      ? oidc.ClientSecretPost(settings.clientSecret)
      : oidc.ClientSecretBasic(settings.clientSecret);
  const config = new oidc.Configuration(metadata, settings.clientId, undefined, clientAuth);
  config.timeout = HTTP_TIMEOUT_SECONDS;
  if (options.allowInsecure) oidc.allowInsecureRequests(config);
  // Validate the ID token's JWS signature against the provider's JWKS too (not only TLS trust).
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** Far more providers than a site configures: the bound only guards memory. */
const CACHED_PROVIDERS = 1_000;

/** Discovery results per provider (its current version only), in memory for CACHE_MS. */
export class OidcConfigurations implements OidcDiscovery {
  private readonly cache = new LRUCache<string, oidc.Configuration>({ max: CACHED_PROVIDERS, ttl: CACHE_MS });

  constructor(private readonly options: OidcOptions) {}

  /** Discovery without caching: what an administrator's create/update must pass (6304). */
  async validate(settings: OidcProviderSettings): Promise<void> {
    await discoverProvider(settings, this.options);
  }

  async get(settings: OidcProviderSettings): Promise<oidc.Configuration> {
    const key = `${settings.id}@${settings.version}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const config = await discoverProvider(settings, this.options);
    for (const old of [...this.cache.keys()]) if (old.startsWith(`${settings.id}@`)) this.cache.delete(old);
    this.cache.set(key, config);
    return config;
  }
}
