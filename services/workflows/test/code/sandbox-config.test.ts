import { ConfigError } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { loadWorkflowsConfig } from '../../src/config.js';
import { loadSandboxWorkerConfig } from '../../src/sandbox-worker/sandbox-config.js';

describe('the sandbox worker configuration (PROCESS_ROLE=sandbox)', () => {
  it('needs only Kafka, and keeps nothing else it is given', () => {
    const config = loadSandboxWorkerConfig({
      PROCESS_ROLE: 'sandbox',
      KAFKA_BROKERS: '127.0.0.1:59092',
      DATABASE_URL: 'postgres://x@127.0.0.1/workflows',
      SECRET_KEY: 'not for this process',
    });
    expect(config).toMatchObject({ PROCESS_ROLE: 'sandbox', GRPC_PORT: 50067, SANDBOX_CONCURRENCY: 2 });
    expect(config.PRINCIPAL_SIGNING_PUBLIC_KEY).toEqual([]);
    expect(Object.keys(config)).not.toContain('DATABASE_URL');
    expect(Object.keys(config)).not.toContain('SECRET_KEY');
  });

  it('refuses a missing broker list or a bad concurrency, naming the variable', () => {
    expect(() => loadSandboxWorkerConfig({ PROCESS_ROLE: 'sandbox' })).toThrow(/KAFKA_BROKERS/);
    const bad = () =>
      loadSandboxWorkerConfig({ PROCESS_ROLE: 'sandbox', KAFKA_BROKERS: 'k:9092', SANDBOX_CONCURRENCY: '0' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/SANDBOX_CONCURRENCY/);
  });

  it('the service itself does not take PROCESS_ROLE=sandbox (main.ts starts the sandbox worker instead)', () => {
    expect(() => loadWorkflowsConfig({ PROCESS_ROLE: 'sandbox' })).toThrow(/PROCESS_ROLE/);
  });
});
