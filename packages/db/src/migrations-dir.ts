import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Dotfiles, TypeScript declaration files and source maps are never migrations. */
export const MIGRATION_IGNORE_PATTERN = '(\\..*|.*\\.d\\.[cm]?ts|.*\\.map)';
export const MIGRATION_FILE_IGNORED = new RegExp(`^${MIGRATION_IGNORE_PATTERN}$`);

/** The absolute path of a migrations folder; throws when it does not exist. */
export function migrationsDirectory(migrationsDir: string | URL): string {
  const dir = migrationsDir instanceof URL ? fileURLToPath(migrationsDir) : resolve(migrationsDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`migrations directory not found: ${dir}`);
  }
  return dir;
}
