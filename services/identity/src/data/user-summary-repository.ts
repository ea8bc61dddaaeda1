import type { Pool } from '@platform/db';
import { isUuid } from '@platform/errors';

/** At most this many ids per GetUsers call (a page of API keys names at most 100 owners). */
export const MAX_USER_IDS = 500;

/** id + username of the given users; unknown and malformed ids are left out. */
export async function findUserSummaries(
  pool: Pool,
  ids: string[],
): Promise<{ id: string; username: string }[]> {
  const valid = [...new Set(ids.filter(isUuid))].slice(0, MAX_USER_IDS);
  if (valid.length === 0) return [];
  const { rows } = await pool.query<{ id: string; username: string }>(
    'SELECT id, username::text AS username FROM users WHERE id = ANY($1::uuid[])',
    [valid],
  );
  return rows;
}
