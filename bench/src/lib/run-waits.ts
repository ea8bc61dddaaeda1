import type { Pool } from '@platform/db';
import { waitUntil } from '@platform/testing';

/** Waits until every run of `ids` has finished (its `finished_at` set), polling every `pollMs`. */
export async function waitForRunsToFinish(db: Pool, ids: string[], pollMs: number): Promise<void> {
  await waitUntil(
    async () => {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) AND finished_at IS NOT NULL`,
        [ids],
      );
      return Number(rows[0]!.n) === ids.length ? true : undefined;
    },
    600_000,
    'runs did not finish',
    pollMs,
  );
}
