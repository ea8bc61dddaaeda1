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

describe('notifications configuration: limits of issue 20', () => {
  it('bounds list pages at page × page_size 10,000 and lets no private SMTP host through by default', () => {
    const config = loadNotificationsConfig(required);
    expect(config.NOTIFICATION_PAGE_WINDOW).toBe(10_000);
    expect(config.SMTP_PRIVATE_HOSTS).toEqual([]);
    expect(config.DELIVERY_ALLOW_PRIVATE_NETWORKS).toBe(false);
    const set = loadNotificationsConfig({
      ...required,
      NOTIFICATION_PAGE_WINDOW: '500',
      SMTP_PRIVATE_HOSTS: ' Relay.Internal , 10.0.0.25',
    });
    expect(set.NOTIFICATION_PAGE_WINDOW).toBe(500);
    expect(set.SMTP_PRIVATE_HOSTS).toEqual(['relay.internal', '10.0.0.25']);
  });

  it.each([
    ['NOTIFICATION_PAGE_WINDOW', '99'],
    ['NOTIFICATION_PAGE_WINDOW', '1000001'],
    ['NOTIFICATION_PAGE_WINDOW', 'deep'],
    ['SMTP_PRIVATE_HOSTS', 'relay internal'],
    ['SMTP_PRIVATE_HOSTS', 'smtp://relay'],
  ])('refuses %s=%s by name', (name, value) => {
    expect(configError({ ...required, [name]: value })).toContain(`${name} is invalid`);
  });
});
