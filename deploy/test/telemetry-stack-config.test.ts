// The configs deploy/local/stack.sh writes for its Prometheus and Jaeger, checked by the tools
// themselves: `promtool check config` and `jaeger validate` (the OpenTelemetry Collector's own
// validation of every component). Both binaries are required test tools (./platform installs them
// from their Go modules, deploy/tools/install-{prometheus,jaeger}.sh; PROMTOOL / JAEGER_BIN).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOY } from './support/topology.js';

const LIB = join(DEPLOY, 'local', 'lib');
const stackDir = mkdtempSync(join(tmpdir(), 'stack-config-'));
afterAll(() => rmSync(stackDir, { recursive: true, force: true }));

function tool(variable: string, script: string, name: string): string {
  if (process.env[variable]) return process.env[variable]!;
  const out = spawnSync('bash', [join(DEPLOY, 'tools', script)], { encoding: 'utf8', timeout: 900_000 });
  if (out.status !== 0) throw new Error(`${script} failed: ${out.stderr}`);
  const path = out.stdout.trim();
  return name === 'jaeger' ? path : join(path, name);
}

/** Runs one of lib/*.sh's config writers the way stack.sh does (its settings, env.sh's ports). */
function writeConfig(lib: string, fn: string, env: Record<string, string> = {}): string {
  const script = `set -euo pipefail; source "${LIB}/common.sh"; source "${LIB}/${lib}"; ${fn}`;
  const out = spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: {
      ...process.env,
      STACK_DIR: stackDir,
      SCRIPT_DIR: join(DEPLOY, 'local'),
      HOST: '127.0.0.1',
      PROMETHEUS_PORT: '59090',
      JAEGER_OTLP_PORT: '54318',
      JAEGER_QUERY_PORT: '56686',
      JAEGER_QUERY_GRPC_PORT: '56685',
      ...env,
    },
  });
  if (out.status !== 0) throw new Error(`${fn}: ${out.stderr}`);
  return out.stderr;
}

describe('the local stack’s Prometheus and Jaeger configs', () => {
  it('Prometheus: one target per process on its env.sh metrics port, valid for promtool', () => {
    writeConfig('prometheus.sh', 'prometheus_write_config');
    const file = join(stackDir, 'prometheus.yml');
    const config = readFileSync(file, 'utf8');
    const targets = [
      ...config.matchAll(/targets: \["127\.0\.0\.1:(\d+)"\]\n\s+labels: \{ instance: "([\w-]+)" \}/g),
    ];
    expect(targets.map(([, port, name]) => `${name}:${port}`)).toEqual([
      'gateway:9470',
      'identity:9471',
      'apikeys:9472',
      'notifications:9473',
      'models:9474',
      'workflows:9475',
      'observability:9476',
      'sandbox-worker:9477',
    ]);
    expect(config).toMatch(/scrape_interval: 2s/);
    const check = spawnSync(
      tool('PROMTOOL', 'install-prometheus.sh', 'promtool'),
      ['check', 'config', file],
      {
        encoding: 'utf8',
      },
    );
    expect(check.stdout + check.stderr).toMatch(/SUCCESS/);
    expect(check.status).toBe(0);
  });

  it('Prometheus: a process on port 0 (any free port) is left out with a warning', () => {
    const warning = writeConfig('prometheus.sh', 'prometheus_write_config', { MODELS_METRICS_PORT: '0' });
    expect(warning).toMatch(/models has no fixed metrics port/);
    expect(readFileSync(join(stackDir, 'prometheus.yml'), 'utf8')).not.toMatch(/instance: "models"/);
    // A hyphenated process name reads its variable with underscores.
    const sandbox = writeConfig('prometheus.sh', 'prometheus_write_config', {
      SANDBOX_WORKER_METRICS_PORT: '0',
    });
    expect(sandbox).toMatch(/sandbox-worker has no fixed metrics port \(SANDBOX_WORKER_METRICS_PORT=0\)/);
    expect(readFileSync(join(stackDir, 'prometheus.yml'), 'utf8')).not.toMatch(/instance: "sandbox-worker"/);
  });

  it('Jaeger: OTLP/HTTP in, memory storage, the query service; valid for `jaeger validate`', () => {
    writeConfig('jaeger.sh', 'jaeger_write_config');
    const file = join(stackDir, 'jaeger.yaml');
    const config = readFileSync(file, 'utf8');
    expect(config).toMatch(/otlp:\n\s+protocols:\n\s+http:\n\s+endpoint: 127\.0\.0\.1:54318/);
    expect(config).toMatch(/jaeger_query:[\s\S]*http:\n\s+endpoint: 127\.0\.0\.1:56686/);
    expect(config).not.toMatch(/grpc:\n\s+endpoint: [^\n]*4317/); // no OTLP gRPC receiver
    const check = spawnSync(
      tool('JAEGER_BIN', 'install-jaeger.sh', 'jaeger'),
      ['validate', `--config=${file}`],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(check.stderr).not.toMatch(/error/i);
    expect(check.status).toBe(0);
  });
});
