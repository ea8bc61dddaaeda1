import type { Db } from './grants-repository.js';

export interface AvailableModelRow {
  id: string;
  name: string;
  provider: string;
  provider_display_name: string | null;
  model_type: string;
  capabilities: Record<string, unknown> | null;
  context_length: number | null;
  is_default: boolean;
}

/**
 * Enabled models with an enabled grant to at least one of `teamIds`, each once, in the admin
 * list's order (sort_order, then name). Selects only what a model picker may show.
 */
export async function listAvailableModels(
  db: Db,
  filter: { teamIds: string[]; modelType: string | null },
  paging: { limit: number; offset: number },
): Promise<{ rows: AvailableModelRow[]; total: number }> {
  const where = `m.is_enabled AND ($2::text IS NULL OR m.model_type = $2)
    AND EXISTS (SELECT 1 FROM team_model_grants g
                 WHERE g.model_id = m.id AND g.is_enabled AND g.team_id = ANY($1::uuid[]))`;
  const { rows } = await db.query<AvailableModelRow>(
    `SELECT m.id, m.name, m.provider, m.provider_display_name, m.model_type, m.capabilities,
            m.context_length, m.is_default
       FROM models m WHERE ${where}
      ORDER BY m.sort_order, m.name, m.id LIMIT $3 OFFSET $4`,
    [filter.teamIds, filter.modelType, paging.limit, paging.offset],
  );
  const count = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM models m WHERE ${where}`,
    [filter.teamIds, filter.modelType],
  );
  return { rows, total: count.rows[0]?.total ?? 0 };
}
