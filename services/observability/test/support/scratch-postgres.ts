import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@platform/testing';

/** The local stack's unprivileged user for postgres when it runs as root (deploy/local/stack.sh). */
const OS_USER = process.env.STACK_PG_OS_USER ?? 'platformdb';

export interface ScratchPostgres {
  /** Superuser `platform`, trust auth, database `postgres`. */
  url: string;
  stop(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * A throw-away Postgres cluster started WITHOUT `shared_preload_libraries` (the shared stack's
 * preloads pg_stat_statements, and must not be restarted under other tests).
 */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const root = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', OS_USER, '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  const dir = mkdtempSync(join(tmpdir(), 'obsys-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', OS_USER]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', OS_USER]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const bin = binDir();
  const port = await freePort();
  as(`${bin}/initdb`, ['-D', data, '-U', 'platform', '--auth=trust', '--no-locale', '-E', 'UTF8']);
  as(`${bin}/pg_ctl`, [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=''`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://platform@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        as(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
