import type { Connection } from '@platform/mongo';

/**
 * Version of the collections and indexes this build expects; bumped with every change to the
 * mongoose models, and reported by GetInfo once the database answered.
 */
export const SCHEMA_VERSION = 'notifications-v1';

export async function mongoSchemaVersion(connection: Connection): Promise<string> {
  await connection.db!.admin().ping();
  return SCHEMA_VERSION;
}
