import type { Pool, PoolClient } from '@platform/db';

export interface AuditEntry {
  actorUserId: string | null;
  /** Dotted action name, e.g. `settings.update`, `user.roles_changed`. */
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string;
  userAgent?: string;
  /** Never secret values: names and ids only. */
  details?: Record<string, unknown>;
  requestId?: string;
}

/** Appends one row to `audit_log`; pass a transaction client to commit it with the change. */
export async function writeAudit(db: Pool | PoolClient, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, ip, user_agent, details, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
    [
      entry.actorUserId,
      entry.action,
      entry.targetType ?? null,
      entry.targetId ?? null,
      entry.ip || null,
      entry.userAgent || null,
      JSON.stringify(entry.details ?? {}),
      entry.requestId ?? null,
    ],
  );
}
