// deploy/local/services.sh for real: a private set of the seven services (this checkout's dist/, own
// run directory, own ports, fresh databases, own queue prefixes) beside the shared one, which is not
// touched. A SIGKILLed service, a pid file naming a zombie or a pid reused by another process: `start`
// brings the service back and reports ready only once every service answers its health check.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTHCHECK_SCRIPT, REPO, SERVICES, grpcAddrVar } from './support/topology.js';

const SERVICES_SH = join(REPO, 'deploy', 'local', 'services.sh');
const DATABASES = ['identity', 'apikeys', 'models', 'workflows', 'observability'];
const tag = `svcrestart_${Date.now().toString(36)}`;
const runDir = mkdtempSync(join(tmpdir(), 'services-run-'));
const ports: Record<string, number> = {};
const env: NodeJS.ProcessEnv = { ...process.env };
const helpers: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function adminSql(sql: string) {
  const out = spawnSync('psql', [env.POSTGRES_ADMIN_URL ?? '', '-v', 'ON_ERROR_STOP=1', '-qc', sql], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`psql: ${out.stderr}`);
}

function services(command: 'start' | 'stop' | 'status') {
  return new Promise<{ code: number; out: string }>((resolve) => {
    const child = spawn('bash', [SERVICES_SH, command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const pidOf = (name: string) => Number(readFileSync(join(runDir, 'run', `${name}.pid`), 'utf8'));
function alive(pid: number): boolean {
  try {
    return /^State:\s+[^Z]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The image's healthcheck script: gRPC health SERVING, or the gateway's /api/v1/health 2xx. */
function healthy(name: string): boolean {
  const spec = SERVICES.find((s) => s.name === name)!;
  const args =
    spec.protocol === 'http'
      ? ['http', `http://127.0.0.1:${ports[name]}/api/v1/health`]
      : ['grpc', `127.0.0.1:${ports[name]}`];
  return spawnSync(process.execPath, [HEALTHCHECK_SCRIPT, ...args], { timeout: 10_000 }).status === 0;
}

async function killAndWait(name: string) {
  const pid = pidOf(name);
  process.kill(pid, 'SIGKILL');
  await expect.poll(() => healthy(name), { timeout: 30_000, interval: 100 }).toBe(false);
  return pid;
}

beforeAll(async () => {
  for (const s of SERVICES) ports[s.name] = await freePort();
  expect(new Set(Object.values(ports)).size).toBe(SERVICES.length);
  for (const s of SERVICES) {
    // Metrics on any free port: the shared set holds the default ones.
    env[`${s.name.toUpperCase()}_METRICS_PORT`] = '0';
    if (s.protocol === 'http') env.HTTP_PORT = String(ports[s.name]);
    else env[grpcAddrVar(s.name)] = `127.0.0.1:${ports[s.name]}`;
  }
  // The sandbox worker (the workflows build, PROCESS_ROLE=sandbox) runs beside them, on its own ports.
  env.SANDBOX_WORKER_GRPC_ADDR = `127.0.0.1:${await freePort()}`;
  env.SANDBOX_WORKER_METRICS_PORT = '0';
  delete env.GATEWAY_URL;
  const admin = new URL(env.POSTGRES_ADMIN_URL ?? 'postgres://platform:platform@127.0.0.1:55432/postgres');
  for (const db of DATABASES) {
    adminSql(`CREATE DATABASE ${tag}_${db}`);
    admin.pathname = `/${tag}_${db}`;
    env[`${db.toUpperCase()}_DATABASE_URL`] = admin.toString();
  }
  Object.assign(env, {
    SERVICES_RUN_DIR: join(runDir, 'run'),
    SERVICES_LOG_DIR: join(runDir, 'logs'),
    MONGO_URL: `mongodb://${new URL(env.MONGO_URL ?? 'mongodb://127.0.0.1:57017').host}/${tag}`,
    // Kafka work queues and consumer groups of their own: the shared services' tasks stay theirs.
    QUEUE_TOPIC_PREFIX: `${tag}.`,
    AGENT_DIRECTORY_GROUP: `${tag}.agent-directory`,
    REDIS_KEY_PREFIX: `${tag}:apikeys:`,
    READY_TIMEOUT: '90',
  });
  for (const s of SERVICES) expect(existsSync(join(REPO, 'services', s.name, 'dist', 'main.js'))).toBe(true);
}, 60_000);

afterAll(async () => {
  await services('stop');
  for (const h of helpers) h.kill('SIGKILL');
  for (const db of DATABASES) adminSql(`DROP DATABASE IF EXISTS ${tag}_${db} WITH (FORCE)`);
  rmSync(runDir, { recursive: true, force: true });
}, 60_000);

describe('services.sh with its own run directory and ports', () => {
  it('starts all seven, healthy on the given ports', async () => {
    const start = await services('start');
    expect(start.out).toMatch(/services ready in \d+s/);
    expect(start.code).toBe(0);
    expect(SERVICES.filter((s) => !healthy(s.name)).map((s) => s.name)).toEqual([]);
    const status = await services('status');
    expect(status.code).toBe(0);
    expect(status.out).toContain(`port ${env.SANDBOX_WORKER_GRPC_ADDR!.split(':')[1]}`);
    expect(status.out).toContain(`port ${ports.identity}`);
  }, 150_000);

  it('brings back a service killed with SIGKILL', async () => {
    const old = await killAndWait('identity');
    const start = await services('start');
    expect(start.code).toBe(0);
    expect(start.out).toMatch(/identity started/);
    expect(start.out).not.toMatch(/apikeys started/);
    expect(pidOf('identity')).not.toBe(old);
    expect(alive(pidOf('identity'))).toBe(true);
    expect(healthy('identity')).toBe(true);
  }, 150_000);

  it('does not take a zombie or a reused pid for the service', async () => {
    await killAndWait('apikeys');
    // A zombie: its parent (`sleep 600` after exec) never reaps it, so `kill -0` still succeeds.
    const zombieParent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 600'], { stdio: 'pipe' });
    helpers.push(zombieParent);
    const zombie = Number(
      await new Promise<string>((r) => zombieParent.stdout.once('data', (c: Buffer) => r(c.toString()))),
    );
    // `sleep 0.1` exits and, never reaped, stays a zombie: wait for that state, not a fixed time.
    await expect
      .poll(() => readFileSync(`/proc/${zombie}/status`, 'utf8'), { timeout: 10_000, interval: 50 })
      .toMatch(/^State:\s+Z/m);
    writeFileSync(join(runDir, 'run', 'apikeys.pid'), String(zombie));
    await killAndWait('models');
    // A live process of someone else under the pid the file names.
    writeFileSync(join(runDir, 'run', 'models.pid'), String(zombieParent.pid));
    const start = await services('start');
    expect(start.code).toBe(0);
    expect(start.out).toMatch(/apikeys started/);
    expect(start.out).toMatch(/models started/);
    expect(healthy('apikeys') && healthy('models')).toBe(true);
    expect(alive(zombieParent.pid!)).toBe(true);
  }, 150_000);

  it('refuses to report ready when another process holds a stopped service’s port', async () => {
    await killAndWait('notifications');
    const impostor = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => impostor.listen(ports.notifications, '127.0.0.1', r));
    try {
      const start = await services('start');
      expect(start.code).not.toBe(0);
      expect(start.out).toMatch(new RegExp(`port ${ports.notifications} of notifications is held`));
      expect(start.out).not.toMatch(/services ready/);
    } finally {
      await new Promise((r) => impostor.close(r));
    }
    const again = await services('start');
    expect(again.code).toBe(0);
    expect(healthy('notifications')).toBe(true);
  }, 150_000);
});
