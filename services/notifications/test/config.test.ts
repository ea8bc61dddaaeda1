import { ConfigError } from '@platform/config';
import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { loadNotificationsConfig } from '../src/config.js';

// The smallest environment the service starts with (the rest has defaults).
const required = {
  MONGO_URL: 'mongodb://127.0.0.1:57017/notifications',
  REDIS_URL: 'redis://127.0.0.1:56379/0',
  KAFKA_BROKERS: '127.0.0.1:59092',
  IDENTITY_GRPC_ADDR: '127.0.0.1:50061',
  ...stackEnv.serviceTrustEnv('notifications'),
  TASK_SEAL_KEY: stackEnv.taskSealKey,
};

function configError(source: Record<string, string>): string {
  try {
    loadNotificationsConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('the configuration was accepted');
}

describe('notifications configuration: the inbox read model', () => {
  it('trusts a built unit 15 minutes unless told otherwise', () => {
    expect(loadNotificationsConfig(required).INBOX_INDEX_TTL_MS).toBe(900_000);
    expect(loadNotificationsConfig({ ...required, INBOX_INDEX_TTL_MS: '60000' }).INBOX_INDEX_TTL_MS).toBe(
      60_000,
    );
  });

  it.each(['abc', '0', '-5', '999', '86400001', '1.5'])('refuses INBOX_INDEX_TTL_MS=%s by name', (value) => {
    const problems = configError({ ...required, INBOX_INDEX_TTL_MS: value })
      .split('\n')
      .filter((line) => line.trim().startsWith('- '));
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^\s+- INBOX_INDEX_TTL_MS is invalid/);
  });
});
