import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/** One persisted snapshot; JSON values as the text stored. */
export interface SnapshotRow {
  id: string;
  workflow_id: string;
  version: number;
  description: string;
  definition: string;
  variables: string;
  trigger_type: string;
  trigger_config: string;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = `id, workflow_id, version, description, definition::text AS definition,
  variables::text AS variables, trigger_type, trigger_config::text AS trigger_config, created_by, created_at`;

/**
 * Snapshots the workflow's current state under its current version. Returns null when that version
 * already has one: the unique (workflow_id, version) constraint decides, so two concurrent requests
 * can never write two (the loser gets null, not an error).
 */
export async function snapshotCurrentState(
  db: Db,
  workflowId: string,
  description: string,
  createdBy: string,
): Promise<SnapshotRow | null> {
  const { rows } = await db.query<SnapshotRow>(
    `INSERT INTO workflow_snapshots (workflow_id, version, description, definition, variables, trigger_type,
       trigger_config, created_by)
     SELECT id, version, $2, definition, variables, trigger_type, trigger_config, $3
       FROM workflows WHERE id = $1
     ON CONFLICT ON CONSTRAINT workflow_snapshots_version_key DO NOTHING
     RETURNING ${COLUMNS}`,
    [workflowId, description, createdBy],
  );
  return rows[0] ?? null;
}

export async function findSnapshot(db: Db, workflowId: string, version: number): Promise<SnapshotRow | null> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${COLUMNS} FROM workflow_snapshots WHERE workflow_id = $1 AND version = $2`,
    [workflowId, version],
  );
  return rows[0] ?? null;
}

/** Newest version first. */
export async function listSnapshots(
  db: Db,
  workflowId: string,
  limit: number,
  offset: number,
): Promise<{ rows: SnapshotRow[]; total: number }> {
  const total = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM workflow_snapshots WHERE workflow_id = $1`,
    [workflowId],
  );
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${COLUMNS} FROM workflow_snapshots WHERE workflow_id = $1 ORDER BY version DESC LIMIT $2 OFFSET $3`,
    [workflowId, limit, offset],
  );
  return { rows, total: total.rows[0]!.n };
}
