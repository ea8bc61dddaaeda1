import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkHealth } from '@platform/grpc';
import { freePorts } from './free-port.js';
import { freshDatabase, type FreshDatabase } from './fresh-database.js';
import { stackEnv, uniqueName } from './stack-env.js';
import { waitUntil } from './wait-until.js';

/** The workspace root, from packages/testing/{src,dist}/. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServiceProcessOptions {
  /** Extra environment (wins over the defaults below). */
  env?: Record<string, string>;
  /** The built entry point; default `services/<name>/dist/main.js` (run `pnpm run build` first). */
  main?: string;
  /** How long the service may take to answer gRPC health (migrations included). */
  readyTimeoutMs?: number;
}

export interface ServiceProcess {
  /** `127.0.0.1:<port>` of its gRPC server. */
  address: string;
  /** `http://127.0.0.1:<port>/metrics`: its Prometheus metrics (a free port the harness picked). */
  metricsUrl: string;
  /** Its own fresh database (dropped by `stop`). */
  database: FreshDatabase;
  /** The child's process id. */
  pid: number;
  /** Sends `signal` (default SIGKILL: a crash, no shutdown hooks) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

async function exited(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Another service for a service's tests, as it runs in production: the BUILT `main.js` as a child
 * process on a fresh database, a free gRPC port and the local stack, resolved once gRPC health
 * answers SERVING. Packages never import a service; they only start its build output.
 */
export async function startServiceProcess(
  name: string,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const database = await freshDatabase(`${name}_proc`);
  // Both at once, so the two can never be the same port.
  const [port, freeMetricsPort] = (await freePorts(2)) as [number, number];
  // A free port chosen here (not METRICS_PORT=0) so the harness knows where to scrape without
  // reading the child's logs, which tests keep at `warn`.
  const metricsPort = options.env?.METRICS_PORT ?? String(freeMetricsPort);
  const output: string[] = [];
  const child = spawn(process.execPath, [options.main ?? `${ROOT}services/${name}/dist/main.js`], {
    env: {
      ...process.env,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: stackEnv.redisUrl,
      KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
      SECRET_KEY: stackEnv.secretKey,
      TASK_SEAL_KEY: stackEnv.taskSealKey,
      GRPC_PORT: String(port),
      METRICS_PORT: metricsPort,
      // Its own private key and its callers' public keys, never another service's private key.
      ...stackEnv.serviceTrustEnv(name),
      // Own work-queue topics, so no other running copy consumes this one's tasks.
      QUEUE_TOPIC_PREFIX: `${uniqueName('t')}.`,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => output.push(chunk.toString('utf8'));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const address = `127.0.0.1:${port}`;
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        return (await checkHealth(address, '', 500).catch(() => undefined)) === 'SERVING' ? true : undefined;
      },
      options.readyTimeoutMs ?? 60_000,
      `${name} did not become healthy on ${address}`,
      100,
    );
  } catch (error) {
    child.kill('SIGKILL');
    await database.drop().catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${output.join('').slice(-2_000)}`);
  }
  return {
    address,
    database,
    pid: child.pid ?? 0,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      await exited(child, 15_000);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child, 15_000);
      await database.drop();
    },
  };
}
