import type { Pool, PoolClient } from '@platform/db';
import { isUuid } from '@platform/errors';

type Queryable = Pool | PoolClient;

/** One row of `models` (the API key sealed; prices as Postgres numeric text, e.g. "0.150000"). */
export interface ModelRow {
  id: string;
  name: string;
  provider: string;
  model_id: string;
  model_type: string;
  provider_display_name: string | null;
  base_url: string | null;
  api_key_sealed: string | null;
  context_length: number | null;
  max_output_tokens: number | null;
  input_price: string | null;
  output_price: string | null;
  default_params: Record<string, unknown> | null;
  capabilities: Record<string, unknown> | null;
  is_enabled: boolean;
  is_default: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

/** The writable columns (everything but id and the timestamps). */
export type ModelValues = Omit<ModelRow, 'id' | 'created_at' | 'updated_at'>;

const COLUMNS = [
  'name',
  'provider',
  'model_id',
  'model_type',
  'provider_display_name',
  'base_url',
  'api_key_sealed',
  'context_length',
  'max_output_tokens',
  'input_price',
  'output_price',
  'default_params',
  'capabilities',
  'is_enabled',
  'is_default',
  'sort_order',
] as const satisfies readonly (keyof ModelValues)[];

function parameters(values: ModelValues): unknown[] {
  return COLUMNS.map((column) => {
    const value = values[column];
    // jsonb parameters go as JSON text (node-postgres would send an array as a Postgres array).
    return (column === 'default_params' || column === 'capabilities') && value !== null
      ? JSON.stringify(value)
      : value;
  });
}

/** A model by id; undefined for an unknown id or one that is not a UUID. */
export async function findModelById(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ModelRow | undefined> {
  if (!isUuid(id)) return undefined;
  const lock = options.forUpdate ? ' FOR UPDATE' : '';
  const { rows } = await db.query<ModelRow>(`SELECT * FROM models WHERE id = $1${lock}`, [id]);
  return rows[0];
}

export interface ModelFilters {
  provider?: string | undefined;
  model_type?: string | undefined;
  is_enabled?: boolean | undefined;
}

/** A page of models, `sort_order` ascending, then name, then id (a stable order for paging). */
export async function listModels(
  db: Queryable,
  filters: ModelFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: ModelRow[]; total: number }> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    values.push(value);
    conditions.push(`${column} = $${values.length}`);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const counted = await db.query<{ total: string }>(`SELECT count(*) AS total FROM models ${where}`, values);
  const { rows } = await db.query<ModelRow>(
    `SELECT * FROM models ${where} ORDER BY sort_order, name, id
     LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.limit, page.offset],
  );
  return { rows, total: Number(counted.rows[0]?.total ?? 0) };
}

export async function insertModel(tx: PoolClient, values: ModelValues): Promise<ModelRow> {
  const placeholders = COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
  const { rows } = await tx.query<ModelRow>(
    `INSERT INTO models (${COLUMNS.join(', ')}) VALUES (${placeholders}) RETURNING *`,
    parameters(values),
  );
  return rows[0]!;
}

export async function updateModel(tx: PoolClient, id: string, values: ModelValues): Promise<ModelRow> {
  const assignments = COLUMNS.map((column, index) => `${column} = $${index + 2}`).join(', ');
  const { rows } = await tx.query<ModelRow>(
    `UPDATE models SET ${assignments}, updated_at = now() WHERE id = $1 RETURNING *`,
    [id, ...parameters(values)],
  );
  return rows[0]!;
}

export async function deleteModel(db: Queryable, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await db.query('DELETE FROM models WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/**
 * Serializes every change that can move a default (a transaction-scoped advisory lock), taken
 * before any model row is locked: a writer that clears the old default never waits for a row
 * whose holder waits for this lock. The partial unique index `models_one_default_per_type` stays
 * the last line of defence.
 */
export async function lockDefaultChanges(tx: PoolClient): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('models.default'))`);
}

/** Clears the default of `modelType` except `id` (call under `lockDefaultChanges`). */
export async function clearOtherDefaults(
  tx: PoolClient,
  modelType: string,
  id: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE models SET is_default = false, updated_at = now()
     WHERE model_type = $1 AND is_default AND ($2::uuid IS NULL OR id <> $2::uuid)`,
    [modelType, id],
  );
}
