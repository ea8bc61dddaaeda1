import type { AuthDeps } from '../auth/auth-context.js';
import type { IdentityDependencies } from '../../deps.js';
import type { OidcDiscovery } from './sso-ports.js';

/** What the SSO use cases depend on: the auth pieces plus the OIDC client configurations. */
export type SsoDeps = AuthDeps & Pick<IdentityDependencies, 'config' | 'secrets'> & { oidc: OidcDiscovery };
