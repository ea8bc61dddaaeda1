import type { Pool } from '@platform/db';

export interface AgentEntry {
  id: string;
  name: string | null;
  icon: string | null;
}

/** Latest entry wins by `updated_at`; a redelivered or out-of-order older entry changes nothing. */
export async function upsertAgent(
  pool: Pool,
  entry: { id: string; name: string | null; icon: string | null; updatedAt: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO agent_directory (id, name, icon, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, updated_at = EXCLUDED.updated_at
      WHERE agent_directory.updated_at <= EXCLUDED.updated_at`,
    [entry.id, entry.name, entry.icon, entry.updatedAt],
  );
}

export async function findAgents(pool: Pool, ids: string[]): Promise<Map<string, AgentEntry>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<AgentEntry>(
    'SELECT id, name, icon FROM agent_directory WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}
