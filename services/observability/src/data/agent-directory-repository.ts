import type { Pool } from '@platform/db';
import { isUuid } from '@platform/errors';
import type { AgentDirectoryChange } from '@platform/kafka';

/** Latest entry wins by `updated_at`; a redelivered or out-of-order older entry changes nothing. */
export async function upsertAgentName(pool: Pool, change: AgentDirectoryChange): Promise<void> {
  await pool.query(
    `INSERT INTO agent_directory (id, name, icon, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, updated_at = EXCLUDED.updated_at
      WHERE agent_directory.updated_at <= EXCLUDED.updated_at`,
    [change.id, change.name, change.icon, change.updatedAt],
  );
}

/** Names of the given agent ids (agent ids that are not UUIDs have none). */
export async function agentNames(pool: Pool, ids: string[]): Promise<Map<string, string>> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; name: string | null }>(
    'SELECT id, name FROM agent_directory WHERE id = ANY($1::uuid[])',
    [uuids],
  );
  return new Map(rows.flatMap((row) => (row.name ? [[row.id, row.name] as [string, string]] : [])));
}
