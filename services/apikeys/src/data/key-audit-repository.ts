import type { ApiKeyAuditActionName } from '@platform/contracts';
import type { RequestOrigin } from '@platform/grpc';
import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/** What a change was (API_KEY_AUDIT_ACTIONS in @platform/contracts); stored by name. */
export type KeyAuditAction = ApiKeyAuditActionName;

/** Where a change came from: the gateway's client ip and user agent, and the request id. */
export interface KeyAuditEntry {
  keyId: string;
  action: KeyAuditAction;
  actorUserId: string;
  origin: RequestOrigin;
  /** Names and values of what changed; never the secret or its hash. */
  details: Record<string, unknown>;
}

/**
 * Appends one audit row for a key that exists in this transaction (call it after a create or
 * update, before a delete); the prefix and owner are copied from the key so the row outlives it.
 */
export async function writeKeyAudit(tx: PoolClient, entry: KeyAuditEntry): Promise<void> {
  await tx.query(
    `INSERT INTO api_key_audit (key_id, key_prefix, key_owner_id, action, actor_user_id, ip, user_agent,
                                request_id, details)
     SELECT id, key_prefix, user_id, $2, $3, $4, $5, $6, $7::jsonb FROM api_keys WHERE id = $1`,
    [
      entry.keyId,
      entry.action,
      entry.actorUserId,
      entry.origin.ip || null,
      entry.origin.userAgent || null,
      entry.origin.requestId || null,
      JSON.stringify(entry.details),
    ],
  );
}

export interface KeyAuditRow {
  id: string;
  key_id: string;
  key_prefix: string;
  key_owner_id: string;
  action: string;
  actor_user_id: string;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export interface KeyAuditFilter {
  keyId?: string;
  actorUserId?: string;
  keyOwnerId?: string;
}

/** Newest first, with the total for paging. */
export async function listKeyAudit(
  db: Db,
  filter: KeyAuditFilter,
  limit: number,
  offset: number,
): Promise<{ rows: KeyAuditRow[]; total: number }> {
  const where = `($1::uuid IS NULL OR key_id = $1) AND ($2::uuid IS NULL OR actor_user_id = $2)
                 AND ($3::uuid IS NULL OR key_owner_id = $3)`;
  const params = [filter.keyId ?? null, filter.actorUserId ?? null, filter.keyOwnerId ?? null];
  const [{ rows }, count] = await Promise.all([
    db.query<KeyAuditRow>(
      `SELECT id::text AS id, key_id, key_prefix, key_owner_id, action, actor_user_id, ip, user_agent,
              request_id, details, created_at
         FROM api_key_audit WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_key_audit WHERE ${where}`, params),
  ]);
  return { rows, total: count.rows[0]!.n };
}
