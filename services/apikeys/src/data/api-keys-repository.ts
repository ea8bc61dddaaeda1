import type { ApiKeyStatusName } from '@platform/contracts';
import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/** One api_keys row with its bindings (ids only; names are resolved by the views). */
export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  rate_limit: number;
  is_active: boolean;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  agent_ids: string[];
  workflow_ids: string[];
}

/** The list filter's states (API_KEY_STATUSES in @platform/contracts). */
export type KeyStatus = ApiKeyStatusName;

const COLUMNS = `k.id, k.user_id, k.name, k.key_prefix, k.scopes, k.rate_limit, k.is_active, k.expires_at,
  k.last_used_at, k.created_at, k.updated_at,
  COALESCE((SELECT array_agg(a.agent_id::text ORDER BY a.agent_id) FROM api_key_agents a WHERE a.key_id = k.id), '{}') AS agent_ids,
  COALESCE((SELECT array_agg(w.workflow_id::text ORDER BY w.workflow_id) FROM api_key_workflows w WHERE w.key_id = k.id), '{}') AS workflow_ids`;

/** An expired key is only `expired`, whatever `is_active` says (ARCHITECTURE pin). */
const EXPIRED = `(k.expires_at IS NOT NULL AND k.expires_at <= now())`;
const STATUS_SQL: Record<KeyStatus, string> = {
  expired: EXPIRED,
  active: `(k.is_active AND NOT ${EXPIRED})`,
  inactive: `(NOT k.is_active AND NOT ${EXPIRED})`,
};

export interface NewKeyRow {
  userId: string;
  name: string;
  keyPrefix: string;
  keyHash: string;
  scopes: string[];
  rateLimit: number;
  expiresAt: Date | null;
}

export async function insertKey(db: Db, key: NewKeyRow): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO api_keys (user_id, name, key_prefix, key_hash, scopes, rate_limit, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [key.userId, key.name, key.keyPrefix, key.keyHash, key.scopes, key.rateLimit, key.expiresAt],
  );
  return rows[0]!.id;
}

const BINDINGS = {
  agents: { table: 'api_key_agents', column: 'agent_id' },
  workflows: { table: 'api_key_workflows', column: 'workflow_id' },
} as const;

async function replaceBinding(db: Db, kind: keyof typeof BINDINGS, keyId: string, ids: string[]) {
  const { table, column } = BINDINGS[kind];
  await db.query(`DELETE FROM ${table} WHERE key_id = $1`, [keyId]);
  if (ids.length === 0) return;
  await db.query(
    `INSERT INTO ${table} (key_id, ${column}) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
    [keyId, ids],
  );
}

/** Replaces one kind of binding when given (undefined leaves it as it is; `[]` clears it). */
export async function replaceBindings(
  db: Db,
  keyId: string,
  agentIds: string[] | undefined,
  workflowIds: string[] | undefined,
): Promise<void> {
  if (agentIds) await replaceBinding(db, 'agents', keyId, agentIds);
  if (workflowIds) await replaceBinding(db, 'workflows', keyId, workflowIds);
}

/** A key by id, restricted to one owner unless `ownerId` is null (global admins). */
export async function findKey(db: Db, id: string, ownerId: string | null): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys k WHERE k.id = $1 AND ($2::uuid IS NULL OR k.user_id = $2)`,
    [id, ownerId],
  );
  return rows[0];
}

/** The prefix of a key the owner (or a global admin, `ownerId` null) may change. */
export async function findKeyPrefix(db: Db, id: string, ownerId: string | null): Promise<string | undefined> {
  const { rows } = await db.query<{ key_prefix: string }>(
    'SELECT key_prefix FROM api_keys WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)',
    [id, ownerId],
  );
  return rows[0]?.key_prefix;
}

export interface KeyFilter {
  /** null: every owner. */
  ownerIds: string[] | null;
  statuses: KeyStatus[];
  /** Absent or empty: any name. */
  search?: string | undefined;
}

function whereClause(filter: KeyFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  if (filter.ownerIds) {
    params.push(filter.ownerIds);
    parts.push(`k.user_id = ANY($${params.length}::uuid[])`);
  }
  if (filter.statuses.length > 0) parts.push(`(${filter.statuses.map((s) => STATUS_SQL[s]).join(' OR ')})`);
  if (filter.search) {
    // `%` and `_` in the search text match literally.
    params.push(`%${filter.search.replace(/[\\%_]/g, '\\$&')}%`);
    parts.push(`(k.name ILIKE $${params.length} OR k.key_prefix ILIKE $${params.length})`);
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export async function listKeys(
  db: Db,
  filter: KeyFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = whereClause(filter);
  const n = where.params.length;
  const [page, count] = await Promise.all([
    db.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys k ${where.sql}
        ORDER BY k.created_at DESC, k.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, limit, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM api_keys k ${where.sql}`, where.params),
  ]);
  return { rows: page.rows, total: count.rows[0]!.total };
}

export async function keyStats(
  db: Db,
  ownerId: string | null,
): Promise<{ total: number; active: number; inactive: number; expired: number }> {
  const { rows } = await db.query<{ total: number; active: number; inactive: number; expired: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE ${STATUS_SQL.active})::int AS active,
            count(*) FILTER (WHERE ${STATUS_SQL.inactive})::int AS inactive,
            count(*) FILTER (WHERE ${STATUS_SQL.expired})::int AS expired
       FROM api_keys k WHERE ($1::uuid IS NULL OR k.user_id = $1)`,
    [ownerId],
  );
  return rows[0]!;
}

export interface KeyChanges {
  name?: string;
  scopes?: string[];
  rateLimit?: number;
  isActive?: boolean;
}

/** Applies the given changes (and bumps updated_at); false when no such key for this owner. */
export async function updateKey(
  db: Db,
  id: string,
  ownerId: string | null,
  changes: KeyChanges,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE api_keys SET name = COALESCE($3, name), scopes = COALESCE($4, scopes),
            rate_limit = COALESCE($5, rate_limit), is_active = COALESCE($6, is_active), updated_at = now()
      WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)`,
    [
      id,
      ownerId,
      changes.name ?? null,
      changes.scopes ?? null,
      changes.rateLimit ?? null,
      changes.isActive ?? null,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function deleteKey(db: Db, id: string, ownerId: string | null): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM api_keys WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)',
    [id, ownerId],
  );
  return (rowCount ?? 0) > 0;
}

export interface VerifiableKey extends ApiKeyRow {
  key_hash: string;
}

/** The verification lookup: by the unique prefix, hash compared by the caller in constant time. */
export async function findByPrefix(db: Db, prefix: string): Promise<VerifiableKey | undefined> {
  const { rows } = await db.query<VerifiableKey>(
    `SELECT ${COLUMNS}, k.key_hash FROM api_keys k WHERE k.key_prefix = $1`,
    [prefix],
  );
  return rows[0];
}

/** Writes coalesced uses; never moves last_used_at backwards. */
export async function recordLastUsed(db: Db, uses: { keyId: string; usedAt: Date }[]): Promise<number> {
  if (uses.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE api_keys k SET last_used_at = u.used_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS u(key_id, used_at)
      WHERE k.id = u.key_id AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`,
    [uses.map((u) => u.keyId), uses.map((u) => u.usedAt)],
  );
  return rowCount ?? 0;
}
