// A FerretDB of its own for the connection-form tests, started with `--repl-set-name` so that it
// answers `hello` as the primary of replica set `rs0` (its `hosts`: its own address). A seed list
// with more than one host needs that: the driver drops a standalone server from a multi-host seed
// list, as the server discovery spec says. Backed by the local Postgres (the test database), so the
// stack's own FerretDB is not touched.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPLICA_SET = 'rs0';

/** The FerretDB binary stack.sh built (deploy/local/stack.sh: $CACHE_DIR/bin/ferretdb). */
const FERRETDB_BIN =
  process.env.FERRETDB_BIN ??
  join(
    process.env.AGENT_PLATFORM_CACHE_DIR ?? join(homedir(), '.cache', 'agent-platform'),
    'bin',
    'ferretdb',
  );
const BACKEND_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';

export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() && true));
    socket.once('error', () => resolve(false));
  });

export interface FerretReplica {
  port: number;
  stop(): Promise<void>;
}

export async function startFerretReplica(): Promise<FerretReplica> {
  const port = await unusedPort();
  const stateDir = mkdtempSync(join(tmpdir(), 'ferretdb-rs-'));
  const child: ChildProcess = spawn(
    FERRETDB_BIN,
    [
      `--listen-addr=127.0.0.1:${port}`,
      '--handler=postgresql',
      `--postgresql-url=${BACKEND_URL}`,
      `--state-dir=${stateDir}`,
      `--repl-set-name=${REPLICA_SET}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`FerretDB (${FERRETDB_BIN}) did not listen on ${port}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
