import type * as ssoV1 from '@platform/contracts/platform/identity/v1/sso';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { changeSso } from './identity-sso-routes.js';
import { defineRoute } from './route-definition.js';
import { atLeastOneField } from './at-least-one-field.js';
import { nonBlankText } from './validation.js';

/**
 * Admin CRUD of the OpenID Connect providers (docs/identity.md "SSO"); client secrets are write-only.
 */
const READ = 'admin:settings:read';
const UPDATE = 'admin:settings:update';
const admin = { tags: ['admin-sso'], auth: 'user' as const };
const adminUpdate = { ...admin, permission: UPDATE };

// ---- request pieces ------------------------------------------------------------------------

const providerName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, "_" and "-", starting with a letter or digit');
const displayName = nonBlankText(100);
const issuer = z.url({ protocol: /^https?$/ }).max(2048);
const clientId = z.string().min(1).max(512);
const clientSecret = z.string().min(1).max(2048);
/** RFC 6749 scope-token characters; `openid` is always added by identity. */
const scopes = z
  .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/, 'must be a scope token'))
  .max(20);

const idParams = z.object({ id: z.uuid() });
type IdParams = z.infer<typeof idParams>;

const createBody = z.strictObject({
  name: providerName,
  display_name: displayName,
  issuer,
  client_id: clientId,
  client_secret: clientSecret,
  scopes: scopes.optional().describe('default ["openid", "email", "profile"]'),
  enabled: z.boolean().optional().describe('default true'),
  allow_registration: z.boolean().optional().describe('default true'),
});
type CreateBody = z.infer<typeof createBody>;
const updateBody = atLeastOneField(createBody.partial(), 'give at least one field');
type UpdateBody = z.infer<typeof updateBody>;

// ---- responses -----------------------------------------------------------------------------

const providerRecord = z.object({
  id: z.uuid(),
  name: z.string(),
  display_name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret: z.null().describe('never returned'),
  client_secret_set: z.boolean(),
  scopes: z.array(z.string()),
  enabled: z.boolean(),
  allow_registration: z.boolean(),
  redirect_uri: z.string().describe('register this at the provider'),
  created_at: z.string(),
  updated_at: z.string(),
});
const presentProvider = (p: ssoV1.SsoProviderRecord) => ({
  id: p.id,
  name: p.name,
  display_name: p.display_name,
  issuer: p.issuer,
  client_id: p.client_id,
  client_secret: null,
  client_secret_set: p.client_secret_set,
  scopes: p.scopes,
  enabled: p.enabled,
  allow_registration: p.allow_registration,
  redirect_uri: p.redirect_uri,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** The fields create and update pass through as given (update: absent ones stay absent). */
const givenFields = <B extends UpdateBody>(
  body: B,
): Pick<B, 'name' | 'display_name' | 'issuer' | 'client_id' | 'client_secret'> => ({
  name: body.name,
  display_name: body.display_name,
  issuer: body.issuer,
  client_id: body.client_id,
  client_secret: body.client_secret,
});

export const identitySsoAdminRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, ssoV1.ListSsoProvidersResponse>({
    method: 'get',
    path: '/admin/sso/providers',
    summary: 'List SSO providers (client secrets masked)',
    ...admin,
    permission: READ,
    response: z.array(providerRecord),
    invoke: (_input, { clients, principal, locale }) =>
      clients.sso.call('listProviders', {}, { principal, locale }),
    present: (r) => r.items.map(presentProvider),
  }),
  defineRoute<ServiceClients, undefined, undefined, CreateBody, ssoV1.SsoProviderRecord>({
    method: 'post',
    path: '/admin/sso/providers',
    errors: [ErrorCode.SSO_PROVIDER_NAME_EXISTS, ErrorCode.SSO_INVALID_CONFIGURATION],
    summary: 'Add an OpenID Connect provider (the issuer is checked by discovery)',
    ...adminUpdate,
    body: createBody,
    response: providerRecord,
    invoke: ({ body }, context) =>
      changeSso(context, 'createProvider', {
        ...givenFields(body),
        scopes: body.scopes ?? [],
        enabled: body.enabled ?? true,
        allow_registration: body.allow_registration ?? true,
      }),
    present: presentProvider,
  }),
  defineRoute<ServiceClients, IdParams, undefined, UpdateBody, ssoV1.SsoProviderRecord>({
    method: 'put',
    path: '/admin/sso/providers/:id',
    errors: [ErrorCode.SSO_PROVIDER_NAME_EXISTS, ErrorCode.SSO_INVALID_CONFIGURATION],
    summary: 'Update an SSO provider (partial; a new issuer is checked by discovery)',
    ...adminUpdate,
    params: idParams,
    body: updateBody,
    response: providerRecord,
    invoke: ({ params, body }, context) =>
      changeSso(context, 'updateProvider', {
        id: params.id,
        ...givenFields(body),
        scopes: body.scopes && { scopes: body.scopes },
        enabled: body.enabled,
        allow_registration: body.allow_registration,
      }),
    present: presentProvider,
  }),
  defineRoute<ServiceClients, IdParams, undefined, undefined, ssoV1.DeleteSsoProviderResponse>({
    method: 'delete',
    path: '/admin/sso/providers/:id',
    summary: 'Remove an SSO provider and every account link to it',
    ...adminUpdate,
    params: idParams,
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, context) => changeSso(context, 'deleteProvider', { id: params.id }),
  }),
];
