import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/index.js';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  KAFKA_BROKERS: env.hostPorts(),
  GRPC_PORT: env.port(),
  SECRET_KEY: env.secretKey(),
  DEBUG_SQL: env.boolean(false),
});

describe('loadConfig', () => {
  it('parses and coerces a valid environment', () => {
    const config = loadConfig('svc', schema, {
      DATABASE_URL: 'postgres://u:p@localhost:5432/db',
      KAFKA_BROKERS: 'a:1, b:2',
      GRPC_PORT: '50061',
      SECRET_KEY: 'x'.repeat(32),
    });
    expect(config).toEqual({
      DATABASE_URL: 'postgres://u:p@localhost:5432/db',
      KAFKA_BROKERS: ['a:1', 'b:2'],
      GRPC_PORT: 50061,
      SECRET_KEY: 'x'.repeat(32),
      DEBUG_SQL: false,
    });
  });

  it('names every missing and every malformed variable in one error', () => {
    let error: unknown;
    try {
      loadConfig('identity', schema, { DATABASE_URL: 'mysql://x', GRPC_PORT: '99999', SECRET_KEY: '' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('identity: invalid configuration');
    expect(message).toMatch(/DATABASE_URL is invalid: must be a URL starting with postgres:\/\//);
    expect(message).toMatch(/KAFKA_BROKERS is missing/);
    expect(message).toMatch(/GRPC_PORT is invalid/);
    expect(message).toMatch(/SECRET_KEY is missing/);
    expect((error as ConfigError).problems).toHaveLength(4);
  });
});
