import type * as ssoV1 from '@platform/contracts/platform/identity/v1/sso';
import { ErrorCode, isBusinessError, type BusinessError } from '@platform/errors';
import type { RequestOf } from '@platform/grpc';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { loginResult, presentLogin } from './identity-auth-routes.js';
import { asCaller, requestOrigin } from './identity-route-schemas.js';
import { defineRoute, type RouteContext } from './route-definition.js';

/**
 * SSO with OpenID Connect (docs/identity.md "SSO"). The login and callback routes answer a
 * browser with 302 and an API client (`Accept: application/json`) with the envelope.
 */
// ---- request pieces ------------------------------------------------------------------------

/** Stored names are lower-case slugs; lookups are case-insensitive. */
const providerNameParam = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be a provider name');
const providerParams = z.object({ provider_name: providerNameParam });
type ProviderParams = z.infer<typeof providerParams>;
const connectionParams = z.object({ connection_id: z.uuid() });
type ConnectionParams = z.infer<typeof connectionParams>;

/** The authorization response as the provider sends it (RFC 6749 §4.1.2, RFC 9207 `iss`). */
const callbackQuery = z
  .object({
    code: z.string().min(1).max(4096).optional(),
    state: z.string().min(1).max(512),
    iss: z.string().max(2048).optional(),
    session_state: z.string().max(512).optional(),
    error: z.string().min(1).max(256).optional(),
    error_description: z.string().max(2048).optional(),
    error_uri: z.string().max(2048).optional(),
  })
  .refine((q) => q.code !== undefined || q.error !== undefined, { message: 'code or error is required' });
type CallbackQuery = z.infer<typeof callbackQuery>;

// ---- responses -----------------------------------------------------------------------------

const publicProvider = z.object({ name: z.string(), display_name: z.string() });
const connection = z.object({
  id: z.uuid(),
  provider_name: z.string(),
  provider_display_name: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
});

/** A callback that failed; a browser is sent to the landing page with it, a JSON client gets it. */
type CallbackOutcome = ssoV1.CompleteSsoLoginResponse | { failure: BusinessError };

/**
 * The landing page relative to the callback URL (`PUBLIC_WEB_URL/api/v1/sso/callback/<name>`), so
 * it is `PUBLIC_WEB_URL/sso/complete` whatever path PUBLIC_WEB_URL has, without knowing it here.
 * Only the msg key and code travel: the page shows the catalog text of known keys only.
 */
function failureLocation(error: BusinessError): string {
  const fragment = new URLSearchParams({ error: error.msgKey, code: String(error.code) });
  return `../../../../sso/complete#${fragment.toString()}`;
}

/** The browser's landing page gets the login outcome in the fragment (never sent to servers). */
function completeLocation(r: ssoV1.CompleteSsoLoginResponse): string {
  const outcome = presentLogin(r.result!) as Record<string, string | boolean>;
  const fragment = new URLSearchParams(
    Object.entries(outcome).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return `${r.complete_url}#${fragment.toString()}`;
}

type SsoChange = 'deleteConnection' | 'createProvider' | 'updateProvider' | 'deleteProvider';
type SsoChangeRequest<K extends SsoChange> = RequestOf<(typeof ssoV1.SsoServiceService)[K]>;

/** A change, sent as the caller with the request's origin for the audit. */
export function changeSso<K extends SsoChange>(
  context: RouteContext<ServiceClients>,
  rpc: K,
  request: Omit<SsoChangeRequest<K>, 'origin'>,
) {
  const withOrigin = { ...request, origin: requestOrigin(context) } as SsoChangeRequest<K>;
  return context.clients.sso.call(rpc, withOrigin, asCaller(context));
}

export const identitySsoRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, ssoV1.ListPublicSsoProvidersResponse>({
    method: 'get',
    path: '/sso/providers',
    summary: 'Enabled SSO providers for the login page (empty while SSO is off)',
    tags: ['sso'],
    auth: 'public',
    response: z.array(publicProvider),
    invoke: (_input, { clients, locale }) => clients.sso.call('listPublicProviders', {}, { locale }),
    present: (r) => r.items.map((p) => ({ name: p.name, display_name: p.display_name })),
  }),
  defineRoute<ServiceClients, ProviderParams, undefined, undefined, ssoV1.StartSsoLoginResponse>({
    method: 'get',
    path: '/sso/login/:provider_name',
    errors: [ErrorCode.SSO_PROVIDER_NOT_FOUND],
    summary: 'Start an OpenID Connect sign-in: 302 to the provider (JSON clients get the URL)',
    tags: ['sso'],
    auth: 'public',
    params: providerParams,
    response: z.object({ authorization_url: z.string() }),
    invoke: ({ params }, { clients, locale }) =>
      clients.sso.call('startLogin', { provider_name: params.provider_name }, { locale }),
    present: (r) => ({ authorization_url: r.authorization_url }),
    redirect: (r, _input, { wantsJson }) => (wantsJson ? undefined : r.authorization_url),
    redirectDescription: "To the provider's authorization endpoint (PKCE S256, state, nonce)",
  }),
  defineRoute<ServiceClients, ProviderParams, CallbackQuery, undefined, CallbackOutcome>({
    method: 'get',
    path: '/sso/callback/:provider_name',
    errors: [ErrorCode.SSO_PROVIDER_NOT_FOUND, ErrorCode.SSO_REGISTRATION_DISABLED, ErrorCode.FORBIDDEN],
    summary: "The provider's redirect back: signs in, links or creates the account",
    tags: ['sso'],
    auth: 'public',
    params: providerParams,
    query: callbackQuery,
    response: loginResult,
    invoke: async ({ params, query }, context): Promise<CallbackOutcome> => {
      const forwarded = Object.entries(query).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      );
      try {
        return await context.clients.sso.call(
          'completeLogin',
          {
            provider_name: params.provider_name,
            params: Object.fromEntries(forwarded),
            origin: requestOrigin(context),
          },
          { locale: context.locale },
        );
      } catch (error) {
        if (isBusinessError(error) && error.httpStatus < 500) return { failure: error };
        throw error;
      }
    },
    present: (r) => {
      if ('failure' in r) throw r.failure;
      return presentLogin(r.result!);
    },
    redirect: (r, _input, { wantsJson }) => {
      if ('failure' in r) {
        if (wantsJson) throw r.failure;
        return failureLocation(r.failure);
      }
      return wantsJson ? undefined : completeLocation(r);
    },
    redirectDescription:
      'To `PUBLIC_WEB_URL/sso/complete#access_token=…&token_type=bearer` (or the TOTP variants); a failed sign-in to `…/sso/complete#error=<msg key>&code=<code>` (JSON clients: the error envelope)',
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, ssoV1.ListMySsoConnectionsResponse>({
    method: 'get',
    path: '/sso/connections',
    summary: "The caller's linked SSO identities",
    tags: ['sso'],
    auth: 'user',
    response: z.array(connection),
    invoke: (_input, { clients, principal, locale }) =>
      clients.sso.call('listMyConnections', {}, { principal, locale }),
    present: (r) =>
      r.items.map((c) => ({
        id: c.id,
        provider_name: c.provider_name,
        provider_display_name: c.provider_display_name,
        email: c.email || null,
        created_at: c.created_at,
      })),
  }),
  defineRoute<ServiceClients, ConnectionParams, undefined, undefined, ssoV1.DeleteSsoConnectionResponse>({
    method: 'delete',
    path: '/sso/connections/:connection_id',
    summary: "Unlink one of the caller's SSO identities (not the last way to sign in)",
    tags: ['sso'],
    auth: 'user',
    params: connectionParams,
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, context) =>
      changeSso(context, 'deleteConnection', { connection_id: params.connection_id }),
  }),
];
