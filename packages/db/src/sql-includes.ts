import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { RunnerOption } from 'node-pg-migrate';
import { getActions } from 'node-pg-migrate/sqlMigration';

/**
 * `-- @include <module path>` on a line of its own in a SQL migration: the text of that file
 * (resolved like an import from the migration's folder, e.g. `@platform/outbox/sql/outbox-table.sql`)
 * stands in its place. DDL shared by several services (the outbox table) is written once in the
 * package that owns it, and each service's migration names it. Only node-pg-migrate's record of
 * the migration's name counts as "applied" (no checksums), so a migration rewritten to include a
 * file with the very DDL it held keeps its meaning. Included files are not expanded again.
 */
const INCLUDE_LINE = /^--[ \t]*@include[ \t]+(\S+)[ \t]*$/gm;

export async function expandSqlIncludes(sql: string, migrationFile: string): Promise<string> {
  const resolve = createRequire(migrationFile).resolve;
  const specs = [...sql.matchAll(INCLUDE_LINE)].map((match) => match[1]!);
  const texts = new Map<string, string>();
  for (const spec of new Set(specs)) {
    try {
      texts.set(spec, (await readFile(resolve(spec), 'utf8')).trimEnd());
    } catch (err) {
      throw new Error(`${migrationFile}: cannot include ${spec}: ${(err as Error).message}`, { cause: err });
    }
  }
  return sql.replace(INCLUDE_LINE, (_line, spec: string) => texts.get(spec)!);
}

type LoaderStrategies = NonNullable<RunnerOption['migrationLoaderStrategies']>;
type MigrationLoader = Exclude<LoaderStrategies[number]['loader'], string>;
/** The package's legacy build types `getActions` apart from its bundle: the same shape at run time. */
type Actions = Awaited<ReturnType<MigrationLoader>>[number]['actions'];

/** node-pg-migrate's SQL format (`-- Up Migration` / `-- Down Migration`), includes expanded first. */
export const SQL_WITH_INCLUDES: LoaderStrategies = [
  {
    extensions: ['.sql'],
    loader: (filePaths) =>
      Promise.all(
        filePaths.map(async (filePath) => ({
          id: filePath,
          filePaths: [filePath],
          actions: getActions(
            await expandSqlIncludes(await readFile(filePath, 'utf8'), filePath),
          ) as unknown as Actions,
        })),
      ),
  },
];
