import * as ssoV1 from '@platform/contracts/platform/identity/v1/sso';
import { readOrigin, registration } from '@platform/grpc';
import { requirePermission, requirePrincipal } from '@platform/rbac';
import {
  createSsoProvider,
  deleteSsoProvider,
  listSsoProviders,
  updateSsoProvider,
} from '../domain/sso/manage-sso-providers.js';
import type { SsoDeps } from '../domain/sso/sso-context.js';
import { deleteMyConnection, listMyConnections } from '../domain/sso/sso-connections.js';
import { completeUrl } from '../domain/sso/sso-provider-view.js';
import { completeSsoLogin, listPublicProviders, startSsoLogin } from '../domain/sso/sso-sign-in.js';
import type { IdentityDependencies } from '../deps.js';
import { loginResultMessage } from './identity-messages.js';
import type { OidcDiscovery } from '../domain/sso/sso-ports.js';

export const SSO_SERVICE_NAME = 'platform.identity.v1.SsoService';
const READ = 'admin:settings:read';
const UPDATE = 'admin:settings:update';

type ProviderFieldsOf = Omit<ssoV1.UpdateSsoProviderRequest, 'id' | 'scopes' | 'origin'>;

/** The provider fields of a create or update request, in the order the audit lists them. */
function providerInput<R extends ProviderFieldsOf, S extends string[] | undefined>(
  request: R,
  scopes: S,
): Pick<R, keyof ProviderFieldsOf> & { scopes: S } {
  return {
    name: request.name,
    display_name: request.display_name,
    issuer: request.issuer,
    client_id: request.client_id,
    client_secret: request.client_secret,
    scopes,
    enabled: request.enabled,
    allow_registration: request.allow_registration,
  };
}

/** SSO with OpenID Connect: public sign-in, the caller's connections, admin provider management. */
export function ssoGrpc(identity: IdentityDependencies, oidc: OidcDiscovery) {
  const deps: SsoDeps = { ...identity, oidc };
  return registration(SSO_SERVICE_NAME, ssoV1.SsoServiceService, {
    listPublicProviders: async () => ({ items: await listPublicProviders(deps) }),
    startLogin: async (request) => ({ authorization_url: await startSsoLogin(deps, request.provider_name) }),
    completeLogin: async (request, context) => ({
      result: loginResultMessage(
        await completeSsoLogin(
          deps,
          request.provider_name,
          request.params,
          readOrigin(request.origin, context),
        ),
      ),
      complete_url: completeUrl(deps),
    }),
    listMyConnections: async (_request, context) => ({
      items: await listMyConnections(deps, requirePrincipal(context.principal)),
    }),
    deleteConnection: (request, context) =>
      deleteMyConnection(
        deps,
        requirePrincipal(context.principal),
        request.connection_id,
        readOrigin(request.origin, context),
      ),
    listProviders: async (_request, context) => {
      requirePermission(context.principal, READ);
      return { items: await listSsoProviders(deps) };
    },
    createProvider: (request, context) =>
      createSsoProvider(
        deps,
        requirePermission(context.principal, UPDATE),
        providerInput(request, request.scopes),
        readOrigin(request.origin, context),
      ),
    updateProvider: (request, context) =>
      updateSsoProvider(
        deps,
        requirePermission(context.principal, UPDATE),
        request.id,
        providerInput(request, request.scopes?.scopes),
        readOrigin(request.origin, context),
      ),
    deleteProvider: (request, context) =>
      deleteSsoProvider(
        deps,
        requirePermission(context.principal, UPDATE),
        request.id,
        readOrigin(request.origin, context),
      ),
  });
}
