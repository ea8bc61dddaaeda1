import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

export interface ProviderFields {
  name: string;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret_enc: string;
  scopes: string;
  enabled: boolean;
  allow_registration: boolean;
}

/** An `sso_providers` row; `client_secret_enc` is SecretBox ciphertext. */
export interface SsoProviderRow extends ProviderFields {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/** The fields in column order, as the parameters of INSERT ($1..$8) and UPDATE ($2..$9). */
function providerValues(fields: ProviderFields): unknown[] {
  return [
    fields.name,
    fields.display_name,
    fields.issuer,
    fields.client_id,
    fields.client_secret_enc,
    fields.scopes,
    fields.enabled,
    fields.allow_registration,
  ];
}

export interface SsoConnectionRow {
  id: string;
  user_id: string;
  provider_id: string;
  provider_name: string;
  provider_display_name: string;
  subject: string;
  email: string | null;
  created_at: Date;
}

const PROVIDER_COLUMNS = `id, name::text AS name, display_name, issuer, client_id, client_secret_enc, scopes,
  enabled, allow_registration, created_at, updated_at`;

export async function listProviders(db: Db, onlyEnabled = false): Promise<SsoProviderRow[]> {
  const { rows } = await db.query<SsoProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM sso_providers ${onlyEnabled ? 'WHERE enabled' : ''} ORDER BY name`,
  );
  return rows;
}

export async function findProviderById(
  db: Db,
  id: string,
  forUpdate = false,
): Promise<SsoProviderRow | undefined> {
  const { rows } = await db.query<SsoProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM sso_providers WHERE id = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** By name, case-insensitively (names are citext). */
export async function findProviderByName(db: Db, name: string): Promise<SsoProviderRow | undefined> {
  const { rows } = await db.query<SsoProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM sso_providers WHERE name = $1::citext`,
    [name],
  );
  return rows[0];
}

export async function insertProvider(db: Db, fields: ProviderFields): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO sso_providers (name, display_name, issuer, client_id, client_secret_enc, scopes, enabled,
                                allow_registration)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    providerValues(fields),
  );
  return rows[0]!.id;
}

/** Writes every field (the use case merged the change into the current row). */
export async function updateProviderRow(db: Db, id: string, fields: ProviderFields): Promise<void> {
  await db.query(
    `UPDATE sso_providers SET name = $2, display_name = $3, issuer = $4, client_id = $5, client_secret_enc = $6,
            scopes = $7, enabled = $8, allow_registration = $9, updated_at = now()
      WHERE id = $1`,
    [id, ...providerValues(fields)],
  );
}

/** Its connections go with it (ON DELETE CASCADE). */
export async function deleteProviderRow(db: Db, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM sso_providers WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/** Drops every account link to a provider (its issuer changed); returns how many there were. */
export async function deleteProviderConnections(db: Db, providerId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sso_connections WHERE provider_id = $1', [providerId]);
  return rowCount ?? 0;
}

const SELECT_CONNECTIONS = `SELECT c.id, c.user_id, c.provider_id, p.name::text AS provider_name,
  p.display_name AS provider_display_name, c.subject, c.email::text AS email, c.created_at
  FROM sso_connections c JOIN sso_providers p ON p.id = c.provider_id`;

export async function findConnection(
  db: Db,
  providerId: string,
  subject: string,
): Promise<SsoConnectionRow | undefined> {
  const { rows } = await db.query<SsoConnectionRow>(
    `${SELECT_CONNECTIONS}
      WHERE c.provider_id = $1 AND c.subject = $2`,
    [providerId, subject],
  );
  return rows[0];
}

export async function listUserConnections(db: Db, userId: string): Promise<SsoConnectionRow[]> {
  const { rows } = await db.query<SsoConnectionRow>(
    `${SELECT_CONNECTIONS}
      WHERE c.user_id = $1 ORDER BY c.created_at`,
    [userId],
  );
  return rows;
}

export async function insertConnection(
  db: Db,
  connection: { userId: string; providerId: string; subject: string; email: string | null },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO sso_connections (user_id, provider_id, subject, email) VALUES ($1, $2, $3, $4) RETURNING id`,
    [connection.userId, connection.providerId, connection.subject, connection.email],
  );
  return rows[0]!.id;
}

export async function deleteConnectionRow(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM sso_connections WHERE id = $1', [id]);
}

/**
 * The caller's ways to sign in besides the given connection, read with the user row locked so
 * two concurrent unlinks cannot both remove "the other one".
 */
export async function lockLoginMethods(
  client: PoolClient,
  userId: string,
): Promise<{ hasPassword: boolean; connectionIds: string[] } | undefined> {
  const { rows } = await client.query<{ has_password: boolean }>(
    'SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!rows[0]) return undefined;
  const connections = await client.query<{ id: string }>(
    'SELECT id FROM sso_connections WHERE user_id = $1',
    [userId],
  );
  return { hasPassword: rows[0].has_password, connectionIds: connections.rows.map((r) => r.id) };
}

/** Exact address match, case-insensitively (citext). */
export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1::citext', [email]);
  return rows[0]?.id;
}
