import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePorts } from './free-port.js';
import { stackEnv } from './stack-env.js';
import { waitUntil } from './wait-until.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface GatewayProcess {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  metricsUrl: string;
  /** Sends `signal` and returns at once (a drain test watches what happens meanwhile). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (`null`: ended by a signal) once the process has exited. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * The BUILT gateway (`services/gateway/dist/main.js`) as a child process on free ports, as it runs
 * in production (its own telemetry bootstrap included), resolved once it answers HTTP. `env` names
 * the services (`*_GRPC_ADDR`) and anything else; the stack's Redis and keys are the defaults.
 */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const [port, metricsPort] = (await freePorts(2)) as [number, number];
  const output: string[] = [];
  const child = spawn(process.execPath, [`${ROOT}services/gateway/dist/main.js`], {
    env: {
      ...process.env,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      REDIS_URL: stackEnv.redisUrl,
      SECRET_KEY: stackEnv.secretKey,
      ...stackEnv.serviceTrustEnv('gateway'),
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      METRICS_PORT: String(metricsPort),
      // No balancer in front of a test's gateway to wait for; a drain test sets its own window.
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
        return (await fetch(`${baseUrl}/api/v1/health`).catch(() => undefined)) ? true : undefined;
      },
      30_000,
      `the gateway did not answer on ${baseUrl}`,
      100,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output.join('').slice(-2_000)}`);
  }
  return {
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    kill: (signal) => child.kill(signal),
    exited,
    stop,
  };
}
