import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { env, kafkaShape, loadConfig, parsePostgresUrl } from '../src/index.js';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  MONGO_URL: env.mongoUrl(),
  KAFKA_BROKERS: kafkaShape.KAFKA_BROKERS,
});
const valid = {
  DATABASE_URL: 'postgres://u:p@db:5432/identity',
  MONGO_URL: 'mongodb://mongo:27017/notifications',
  KAFKA_BROKERS: 'kafka-0:9092',
};
const load = (source: Record<string, string>) => loadConfig('svc', schema, { ...valid, ...source });

describe('connection URL forms (deploy/README.md, "Connection URLs")', () => {
  it.each([
    ['DATABASE_URL', 'postgres://u:p@db:5432/identity'],
    ['DATABASE_URL', 'postgresql://u:p@db/identity?sslmode=verify-full'],
    ['DATABASE_URL', 'postgres://u:p@deadhost:1,127.0.0.1:55432/db?target_session_attrs=read-write'],
    ['DATABASE_URL', 'postgres://u:p@[fd00::1]:5432,db-2/db?target_session_attrs=primary'],
    ['MONGO_URL', 'mongodb://mongo-0:27017,mongo-1:27017,mongo-2/notifications?replicaSet=rs0'],
    ['MONGO_URL', 'mongodb+srv://user:pass@cluster0.example.net/notifications?tls=false'],
    ['MONGO_URL', 'mongodb://u:p@[fd00::2]:27017/db'],
    ['KAFKA_BROKERS', 'deadhost:9092, kafka-0.kafka:9092,kafka-1.kafka:9093'],
  ])('accepts %s=%s', (variable, value) => {
    expect(load({ [variable]: value })[variable as keyof typeof valid]).toBeTruthy();
  });

  it.each([
    ['DATABASE_URL', 'mysql://u:p@db/identity', /must be a URL starting with postgres:\/\//],
    ['DATABASE_URL', 'postgres://u:p@/identity', /names no host/],
    ['DATABASE_URL', 'postgres://u:p@db:5432,db2:99999/x', /"db2:99999" is not host or host:port/],
    ['DATABASE_URL', 'postgres://u:p@a,b/x?target_session_attrs=standby', /target_session_attrs=standby/],
    ['MONGO_URL', 'mongodb+srv://cluster0.example.net:27017/db', /one host name without a port/],
    ['MONGO_URL', 'mongodb+srv://a.example.net,b.example.net/db', /one host name without a port/],
    ['MONGO_URL', 'mongodb://a:1,:2/db', /":2" is not host or host:port/],
    ['MONGO_URL', 'http://mongo/db', /mongodb:\/\/ or mongodb\+srv:\/\//],
    ['KAFKA_BROKERS', 'kafka-0', /comma-separated list of host:port/],
  ])('refuses %s=%s with a message naming the form', (variable, value, message) => {
    let error: Error | undefined;
    try {
      load({ [variable]: value });
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).toMatch(new RegExp(`${variable} is invalid`));
    expect(error?.message).toMatch(message);
    expect(error?.message).toMatch(/Connection URLs|host:port/);
  });

  it('never echoes the password of a refused URL', () => {
    expect(() => load({ DATABASE_URL: 'postgres://u:hunter2@a,b:x/db' })).toThrow(/is not host or host:port/);
    expect(() => load({ DATABASE_URL: 'postgres://u:hunter2@a,b:x/db' })).not.toThrow(/hunter2/);
  });
});

describe('parsePostgresUrl', () => {
  it('lists the hosts in order with default ports and gives each a single-host URL', () => {
    const parsed = parsePostgresUrl(
      'postgres://u:p%40ss@deadhost:1,[fd00::1],db:6432/app?target_session_attrs=read-write&sslmode=require',
    );
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(parsed.targetSessionAttrs).toBe('read-write');
    expect(parsed.hosts).toEqual([
      { host: 'deadhost', port: 1 },
      { host: 'fd00::1', port: 5432 },
      { host: 'db', port: 6432 },
    ]);
    expect(parsed.hosts.map((h) => parsed.forHost(h))).toEqual([
      'postgres://u:p%40ss@deadhost:1/app?sslmode=require',
      'postgres://u:p%40ss@[fd00::1]:5432/app?sslmode=require',
      'postgres://u:p%40ss@db:6432/app?sslmode=require',
    ]);
  });

  it('means any session when target_session_attrs is not given', () => {
    const parsed = parsePostgresUrl('postgres://u:p@db/app');
    expect(typeof parsed === 'string' ? parsed : parsed.targetSessionAttrs).toBe('any');
  });
});
