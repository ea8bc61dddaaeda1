// Counts what the workflows database did between two snapshots (pg_stat_statements, which the
// local stack preloads, and pg_stat_database), to divide by the runs a benchmark made:
//   node bench/scripts/statement-counts.mjs snapshot > /tmp/before.json
//   ... run the benchmark ...
//   node bench/scripts/statement-counts.mjs diff /tmp/before.json <runs>
// Statements of every connection to the database are counted (the benchmark's own polling too).
import { readFileSync } from 'node:fs';
import { createPool } from '@platform/db';

const url = process.env.WORKFLOWS_DATABASE_URL;
if (!url) throw new Error('WORKFLOWS_DATABASE_URL is not set (source deploy/local/env.sh)');
const client = createPool(url, { max: 1 });
await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const { rows: statements } = await client.query(
  `SELECT queryid::text AS id, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query, calls::bigint AS calls,
          total_exec_time AS ms, rows::bigint AS rows
     FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
);
const { rows: db } = await client.query(
  `SELECT xact_commit::bigint AS commits, xact_rollback::bigint AS rollbacks FROM pg_stat_database
    WHERE datname = current_database()`,
);
await client.end();
const now = { statements, commits: Number(db[0].commits), rollbacks: Number(db[0].rollbacks) };
if (process.argv[2] === 'snapshot') {
  console.log(JSON.stringify(now));
} else {
  const before = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const runs = Number(process.argv[4] ?? 1);
  const old = new Map(before.statements.map((s) => [s.id, s]));
  const delta = now.statements
    .map((s) => {
      const prior = old.get(s.id);
      return {
        query: s.query,
        calls: Number(s.calls) - Number(prior?.calls ?? 0),
        ms: s.ms - (prior?.ms ?? 0),
        rows: Number(s.rows) - Number(prior?.rows ?? 0),
      };
    })
    .filter((s) => s.calls > 0)
    .sort((a, b) => b.calls - a.calls);
  const calls = delta.reduce((sum, s) => sum + s.calls, 0);
  console.log(
    `runs ${runs}: ${(calls / runs).toFixed(2)} statements/run, ` +
      `${((now.commits - before.commits) / runs).toFixed(2)} commits/run, ` +
      `${((now.rollbacks - before.rollbacks) / runs).toFixed(2)} rollbacks/run (whole database)`,
  );
  console.log('| per run | exec ms per run | rows per run | statement |\n|---|---|---|---|');
  for (const s of delta.slice(0, 40))
    console.log(
      `| ${(s.calls / runs).toFixed(2)} | ${(s.ms / runs).toFixed(3)} | ${(s.rows / runs).toFixed(2)} | \`${s.query.replace(/\|/g, '\\|')}\` |`,
    );
}
