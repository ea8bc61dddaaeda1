import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandSqlIncludes } from '../src/sql-includes.js';

/** A migration file beside the fixture, as the runner passes it (the file need not exist). */
const migration = fileURLToPath(new URL('./fixtures/includes/0001_example.sql', import.meta.url));

describe('SQL migrations: `-- @include`', () => {
  it('puts the named file where its line stands, resolved from the migration', async () => {
    const sql = '-- Up Migration\n-- @include ./shared-table.sql\nCREATE INDEX i ON shared_things (id);\n';
    expect(await expandSqlIncludes(sql, migration)).toBe(
      '-- Up Migration\n-- shared DDL\nCREATE TABLE shared_things (id integer);\nCREATE INDEX i ON shared_things (id);\n',
    );
  });

  it('leaves a migration without include lines as it is, and an include inside a line alone', async () => {
    const sql = "-- Up Migration\nSELECT '-- @include ./shared-table.sql';\n";
    expect(await expandSqlIncludes(sql, migration)).toBe(sql);
  });

  it('names the migration and the include that cannot be found', async () => {
    await expect(expandSqlIncludes('-- @include @platform/none/x.sql\n', migration)).rejects.toThrow(
      /0001_example\.sql: cannot include @platform\/none\/x\.sql/,
    );
  });
});
