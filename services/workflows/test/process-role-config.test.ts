import { ConfigError } from '@platform/config';
import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { loadWorkflowsConfig, runsRunWorker } from '../src/config.js';

const required = {
  DATABASE_URL: 'postgres://platform:platform@127.0.0.1:55432/workflows',
  REDIS_URL: 'redis://127.0.0.1:56379/0',
  KAFKA_BROKERS: '127.0.0.1:59092',
  IDENTITY_GRPC_ADDR: '127.0.0.1:50061',
  MODELS_GRPC_ADDR: '127.0.0.1:50064',
  ...stackEnv.serviceTrustEnv('workflows'),
};
const load = (env: Record<string, string>) => loadWorkflowsConfig({ ...required, ...env });

describe('workflows configuration: PROCESS_ROLE and the run worker', () => {
  it('runs the run worker in roles all and worker, not in api; RUN_WORKER_ENABLED=false keeps meaning API only', () => {
    expect(runsRunWorker(load({}))).toBe(true);
    expect(runsRunWorker(load({ PROCESS_ROLE: 'worker' }))).toBe(true);
    expect(runsRunWorker(load({ PROCESS_ROLE: 'api' }))).toBe(false);
    expect(runsRunWorker(load({ PROCESS_ROLE: 'api', RUN_WORKER_ENABLED: 'true' }))).toBe(false);
    expect(runsRunWorker(load({ RUN_WORKER_ENABLED: 'false' }))).toBe(false);
  });

  it('refuses a worker told to run nothing, naming both variables and the fix', () => {
    const refused = () => load({ PROCESS_ROLE: 'worker', RUN_WORKER_ENABLED: 'false' });
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(/RUN_WORKER_ENABLED=false contradicts PROCESS_ROLE=worker.*PROCESS_ROLE=api/);
  });

  it('bounds the drain of a node in flight (RUN_WORKER_DRAIN_MS, 25 s by default)', () => {
    expect(load({}).RUN_WORKER_DRAIN_MS).toBe(25_000);
    expect(load({ RUN_WORKER_DRAIN_MS: '0' }).RUN_WORKER_DRAIN_MS).toBe(0);
    expect(() => load({ RUN_WORKER_DRAIN_MS: '600001' })).toThrow(/RUN_WORKER_DRAIN_MS/);
  });
});
