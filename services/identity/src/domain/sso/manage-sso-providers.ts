import type { RequestOrigin } from '@platform/grpc';
import type { SsoProviderRecord } from '@platform/contracts/platform/identity/v1/sso';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import {
  deleteProviderConnections,
  deleteProviderRow,
  findProviderById,
  insertProvider,
  listProviders,
  updateProviderRow,
  type ProviderFields,
  type SsoProviderRow,
} from '../../data/sso-repository.js';
import type { SsoDeps } from './sso-context.js';
import { callbackUrl } from './sso-provider-view.js';

export interface ProviderInput {
  name: string;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
  enabled: boolean;
  allow_registration: boolean;
}

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** The admin view: the secret never leaves identity, only whether one is stored. */
export function toProviderRecord(deps: SsoDeps, row: SsoProviderRow): SsoProviderRecord {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret_enc !== '',
    scopes: row.scopes.split(' ').filter(Boolean),
    enabled: row.enabled,
    allow_registration: row.allow_registration,
    redirect_uri: callbackUrl(deps, row.name),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const notFound = () => new BusinessError(ErrorCode.NOT_FOUND);

function nameTaken(err: unknown): never {
  if ((err as { code?: string } | null)?.code === '23505') {
    throw new BusinessError(ErrorCode.SSO_PROVIDER_NAME_EXISTS);
  }
  throw err;
}

/** `openid` is what makes it OpenID Connect; kept first, duplicates dropped. */
function scopeText(scopes: string[]): string {
  const list = scopes.length > 0 ? scopes : DEFAULT_SCOPES;
  return [...new Set(['openid', ...list])].join(' ');
}

export async function listSsoProviders(deps: SsoDeps): Promise<SsoProviderRecord[]> {
  return (await listProviders(deps.pool)).map((row) => toProviderRecord(deps, row));
}

/** Discovery must succeed before anything is stored (6304), so a typo never reaches the login page. */
export async function createSsoProvider(
  deps: SsoDeps,
  actor: Principal,
  input: ProviderInput,
  origin: RequestOrigin,
): Promise<SsoProviderRecord> {
  await deps.oidc.validate({
    id: 'new',
    issuer: input.issuer,
    clientId: input.client_id,
    clientSecret: input.client_secret,
    version: '',
  });
  const fields: ProviderFields = {
    name: input.name,
    display_name: input.display_name,
    issuer: input.issuer,
    client_id: input.client_id,
    client_secret_enc: deps.secrets.encrypt(input.client_secret),
    scopes: scopeText(input.scopes),
    enabled: input.enabled,
    allow_registration: input.allow_registration,
  };
  const id = await withTransaction(deps.pool, async (client) => {
    const providerId = await insertProvider(client, fields).catch(nameTaken);
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'sso_provider.create',
      targetType: 'sso_provider',
      targetId: providerId,
      ...origin,
      details: { name: input.name, issuer: input.issuer, enabled: input.enabled },
    });
    return providerId;
  });
  return toProviderRecord(deps, (await findProviderById(deps.pool, id))!);
}

export type ProviderChanges = Partial<ProviderInput>;

/**
 * Partial update. Discovery runs again when the issuer or client id changes, or the provider is
 * switched on; disabling or renaming a provider whose issuer is down must still work. A changed
 * issuer drops the provider's account links and its stored secret in the same transaction.
 */
export async function updateSsoProvider(
  deps: SsoDeps,
  actor: Principal,
  id: string,
  changes: ProviderChanges,
  origin: RequestOrigin,
): Promise<SsoProviderRecord> {
  if (!isUuid(id)) throw notFound();
  const current = await findProviderById(deps.pool, id);
  if (!current) throw notFound();
  // A new issuer is another identity provider: the old one's subjects mean nothing there (an
  // account link would let whoever holds that subject at the new issuer into the linked account),
  // and the old client secret must never be sent to it. Both are dropped; without a new secret the
  // provider is switched off until an admin sets one.
  const issuerChanged = changes.issuer !== undefined && changes.issuer !== current.issuer;
  const secretDropped = issuerChanged && changes.client_secret === undefined;
  const secret =
    changes.client_secret ??
    (secretDropped || !current.client_secret_enc ? '' : deps.secrets.decrypt(current.client_secret_enc));
  const next: ProviderFields = {
    name: changes.name ?? current.name,
    display_name: changes.display_name ?? current.display_name,
    issuer: changes.issuer ?? current.issuer,
    client_id: changes.client_id ?? current.client_id,
    client_secret_enc:
      changes.client_secret !== undefined
        ? deps.secrets.encrypt(changes.client_secret)
        : secretDropped
          ? ''
          : current.client_secret_enc,
    scopes: changes.scopes === undefined ? current.scopes : scopeText(changes.scopes),
    enabled: secretDropped ? false : (changes.enabled ?? current.enabled),
    allow_registration: changes.allow_registration ?? current.allow_registration,
  };
  const revalidate =
    next.issuer !== current.issuer ||
    next.client_id !== current.client_id ||
    (next.enabled && !current.enabled);
  if (revalidate) {
    await deps.oidc.validate({
      id,
      issuer: next.issuer,
      clientId: next.client_id,
      // Discovery sends no secret, but the client object needs one; a dropped secret has none.
      clientSecret: secret || 'no-secret-yet',
      version: '',
    });
  }
  await withTransaction(deps.pool, async (client) => {
    if (!(await findProviderById(client, id, true))) throw notFound();
    // Links first: a failing update (name taken) must roll their removal back with it.
    const droppedLinks = issuerChanged ? await deleteProviderConnections(client, id) : 0;
    await updateProviderRow(client, id, next).catch(nameTaken);
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'sso_provider.update',
      targetType: 'sso_provider',
      targetId: id,
      ...origin,
      // Names of the changed fields only: never the secret.
      details: {
        fields: Object.keys(changes).filter((k) => changes[k as keyof ProviderChanges] !== undefined),
        ...(issuerChanged
          ? { issuer_changed: true, links_dropped: droppedLinks, secret_dropped: secretDropped }
          : {}),
      },
    });
  });
  return toProviderRecord(deps, (await findProviderById(deps.pool, id))!);
}

/** Removes the provider and every account link to it (accounts stay). */
export async function deleteSsoProvider(
  deps: SsoDeps,
  actor: Principal,
  id: string,
  origin: RequestOrigin,
): Promise<{ id: string }> {
  if (!isUuid(id)) throw notFound();
  await withTransaction(deps.pool, async (client) => {
    const row = await findProviderById(client, id, true);
    if (!row || !(await deleteProviderRow(client, id))) throw notFound();
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'sso_provider.delete',
      targetType: 'sso_provider',
      targetId: id,
      ...origin,
      details: { name: row.name },
    });
  });
  return { id };
}
