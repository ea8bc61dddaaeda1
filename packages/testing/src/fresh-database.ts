import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { stackEnv, uniqueName } from './stack-env.js';

export interface FreshDatabase {
  name: string;
  /** Connection URL of the new, empty database. */
  url: string;
  drop(): Promise<void>;
}

/** A new empty Postgres database on the local stack (e.g. one per test file); `drop` removes it. */
export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const name = uniqueName(prefix).replace(/-/g, '_');
  await ensureDatabase(stackEnv.postgresAdminUrl, name);
  return {
    name,
    url: withDatabase(stackEnv.postgresAdminUrl, name),
    drop: () => dropDatabase(stackEnv.postgresAdminUrl, name),
  };
}
