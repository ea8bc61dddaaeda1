import { withTransaction, type Pool, type PoolClient } from '@platform/db';

export interface StoredSetting {
  key: string;
  value: unknown;
}

export async function readAllSettings(pool: Pool): Promise<StoredSetting[]> {
  const { rows } = await pool.query<StoredSetting>('SELECT key, value FROM site_settings');
  return rows;
}

/** Upserts every given setting in one transaction: all change or none. */
export async function writeSettings(
  pool: Pool,
  settings: StoredSetting[],
  actorUserId: string | null,
  inTransaction?: (tx: PoolClient) => Promise<void>,
): Promise<void> {
  await withTransaction(pool, async (client) => {
    for (const setting of settings) {
      await client.query(
        `INSERT INTO site_settings (key, value, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [setting.key, JSON.stringify(setting.value), actorUserId],
      );
    }
    await inTransaction?.(client);
  });
}
