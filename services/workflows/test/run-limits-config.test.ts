import { ConfigError } from '@platform/config';
import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { loadWorkflowsConfig, runLimitsOf } from '../src/config.js';
import { DEFAULT_RUN_LIMITS } from '../src/domain/runs/engine/limits.js';

// The run limits (docs/security.md "Workflow runs: what one run may hold") are validated settings.
const required = {
  DATABASE_URL: 'postgres://platform:platform@127.0.0.1:55432/workflows',
  REDIS_URL: 'redis://127.0.0.1:56379/0',
  KAFKA_BROKERS: '127.0.0.1:59092',
  IDENTITY_GRPC_ADDR: '127.0.0.1:50061',
  MODELS_GRPC_ADDR: '127.0.0.1:50064',
  ...stackEnv.serviceTrustEnv('workflows'),
};

function configError(source: Record<string, string>): string {
  try {
    loadWorkflowsConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('the configuration was accepted');
}

describe('workflows configuration: run limits', () => {
  it('defaults to the documented limits and takes settings', () => {
    expect(runLimitsOf(loadWorkflowsConfig(required))).toEqual({
      maxValueBytes: 1_048_576,
      maxNodeOutputBytes: 2_097_152,
      maxRunBytes: 8_388_608,
      maxHttpResponseBytes: 2_097_152,
      maxNodeResumes: 3,
    });
    expect(DEFAULT_RUN_LIMITS).toEqual(runLimitsOf(loadWorkflowsConfig(required)));
    const set = loadWorkflowsConfig({ ...required, RUN_MAX_NODE_RESUMES: '0', RUN_MAX_RUN_BYTES: '65536' });
    expect(runLimitsOf(set)).toMatchObject({ maxNodeResumes: 0, maxRunBytes: 65_536 });
  });

  it.each([
    ['RUN_MAX_VALUE_BYTES', '4194305'],
    ['RUN_MAX_NODE_OUTPUT_BYTES', '100'],
    ['RUN_MAX_RUN_BYTES', 'lots'],
    ['RUN_MAX_HTTP_RESPONSE_BYTES', '16777217'],
    ['RUN_MAX_NODE_RESUMES', '-1'],
    ['RUN_MAX_NODE_RESUMES', '21'],
  ])('refuses %s=%s by name', (name, value) => {
    expect(configError({ ...required, [name]: value })).toContain(name);
  });
});
