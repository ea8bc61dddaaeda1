import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/** One workflows row; JSON values as the text stored (exactly what the client sent). */
export interface WorkflowRow {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  visibility: string;
  team_id: string | null;
  owner_id: string;
  definition: string;
  variables: string;
  trigger_type: string;
  trigger_config: string;
  version: number;
  status: 'draft' | 'published';
  presentation_mode: string | null;
  published_version: number | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, name, description, icon, visibility, team_id, owner_id, definition::text AS definition,
  variables::text AS variables, trigger_type, trigger_config::text AS trigger_config, version, status,
  presentation_mode, published_version, published_at, created_at, updated_at`;

export interface NewWorkflow {
  name: string;
  description: string;
  icon: string | null;
  visibility: string;
  teamId: string | null;
  ownerId: string;
  definition: string;
  variables: string;
  triggerType: string;
  triggerConfig: string;
}

export async function insertWorkflow(db: Db, row: NewWorkflow): Promise<WorkflowRow> {
  const { rows } = await db.query<WorkflowRow>(
    `INSERT INTO workflows (name, description, icon, visibility, team_id, owner_id, definition, variables,
       trigger_type, trigger_config)
     VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8::json, $9, $10::json) RETURNING ${COLUMNS}`,
    [
      row.name,
      row.description,
      row.icon,
      row.visibility,
      row.teamId,
      row.ownerId,
      row.definition,
      row.variables,
      row.triggerType,
      row.triggerConfig,
    ],
  );
  return rows[0]!;
}

/** `forUpdate`: take the row lock that serializes every change of one workflow (docs/workflows.md). */
export async function findWorkflow(db: Db, id: string, forUpdate = false): Promise<WorkflowRow | null> {
  const { rows } = await db.query<WorkflowRow>(
    `SELECT ${COLUMNS} FROM workflows WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export interface WorkflowFilter {
  /** null = every workflow (superuser); else the caller's own and their teams' workflows. */
  visibleTo: { userId: string; teamIds: string[] } | null;
  search?: string;
  teamId?: string;
  status?: string;
  limit: number;
  offset: number;
}

export async function listWorkflows(
  db: Db,
  filter: WorkflowFilter,
): Promise<{ rows: WorkflowRow[]; total: number }> {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.visibleTo) {
    // The membership rule of domain/workflow-access.ts: a team workflow for its team's current
    // members (its owner too), a personal one for its owner.
    where.push(
      `((team_id IS NULL AND owner_id = ${param(filter.visibleTo.userId)}) OR team_id = ANY(${param(filter.visibleTo.teamIds)}::uuid[]))`,
    );
  }
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`name ILIKE ${param(pattern)}`);
  }
  if (filter.teamId) where.push(`team_id = ${param(filter.teamId)}`);
  if (filter.status) where.push(`status = ${param(filter.status)}`);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflows ${clause}`, values);
  const { rows } = await db.query<WorkflowRow>(
    `SELECT ${COLUMNS} FROM workflows ${clause} ORDER BY updated_at DESC, id DESC
     LIMIT ${param(filter.limit)} OFFSET ${param(filter.offset)}`,
    values,
  );
  return { rows, total: total.rows[0]!.n };
}

/** Only the fields that are set change (`icon: null` clears it). */
export interface WorkflowPatch {
  name?: string;
  description?: string;
  icon?: string | null;
  visibility?: string;
  definition?: string;
  variables?: string;
  triggerType?: string;
  triggerConfig?: string;
}

/**
 * One statement, so the version rule is atomic under concurrent writers: the SET expressions read
 * the row as it is after any concurrent update committed (the row lock makes them wait), and
 * `version` grows by one only when the new definition differs from the stored one as JSON.
 */
export async function updateWorkflowRow(
  db: Db,
  id: string,
  patch: WorkflowPatch,
): Promise<WorkflowRow | null> {
  const { rows } = await db.query<WorkflowRow>(
    `UPDATE workflows SET
       name = COALESCE($2, name),
       description = COALESCE($3, description),
       icon = CASE WHEN $4::boolean THEN $5 ELSE icon END,
       visibility = COALESCE($6, visibility),
       version = version + CASE
         WHEN $7::json IS NOT NULL AND $7::jsonb IS DISTINCT FROM definition::jsonb THEN 1 ELSE 0 END,
       definition = COALESCE($7::json, definition),
       variables = COALESCE($8::json, variables),
       trigger_type = COALESCE($9, trigger_type),
       trigger_config = COALESCE($10::json, trigger_config),
       updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      patch.name ?? null,
      patch.description ?? null,
      patch.icon !== undefined,
      patch.icon ?? null,
      patch.visibility ?? null,
      patch.definition ?? null,
      patch.variables ?? null,
      patch.triggerType ?? null,
      patch.triggerConfig ?? null,
    ],
  );
  return rows[0] ?? null;
}

/** Overwrites the workflow with a snapshot's state and moves to the next version (restore). */
export async function restoreWorkflowRow(
  db: Db,
  id: string,
  state: { definition: string; variables: string; trigger_type: string; trigger_config: string },
): Promise<WorkflowRow> {
  const { rows } = await db.query<WorkflowRow>(
    `UPDATE workflows SET definition = $2::json, variables = $3::json, trigger_type = $4,
       trigger_config = $5::json, version = version + 1, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, state.definition, state.variables, state.trigger_type, state.trigger_config],
  );
  return rows[0]!;
}

export async function markPublished(
  db: Db,
  id: string,
  presentationMode: string,
  publishedVersion: number,
): Promise<WorkflowRow> {
  const { rows } = await db.query<WorkflowRow>(
    `UPDATE workflows SET status = 'published', presentation_mode = $2, published_version = $3,
       published_at = now(), updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, presentationMode, publishedVersion],
  );
  return rows[0]!;
}

/** Deletes the row (its snapshots go with it) and keeps a tombstone under the same id. */
export async function deleteWorkflowRow(db: Db, row: WorkflowRow, deletedBy: string): Promise<void> {
  await db.query(
    `INSERT INTO deleted_workflows (id, name, owner_id, deleted_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO NOTHING`,
    [row.id, row.name, row.owner_id, deletedBy],
  );
  await db.query(`DELETE FROM workflows WHERE id = $1`, [row.id]);
}

/** Names of live workflows and tombstones of deleted ones; unknown ids are left out. */
export async function workflowNames(
  db: Db,
  ids: string[],
): Promise<{ id: string; name: string; deleted: boolean }[]> {
  const { rows } = await db.query<{ id: string; name: string; deleted: boolean }>(
    `SELECT id, name, false AS deleted FROM workflows WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT id, '' AS name, true AS deleted FROM deleted_workflows WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return rows;
}
