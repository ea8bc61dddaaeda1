import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, kafkaSecurity, kafkaShape, loadConfig } from '../src/index.js';

const schema = z.object(kafkaShape);
const load = (source: Record<string, string>) =>
  loadConfig('svc', schema, { KAFKA_BROKERS: 'k:9092', ...source });

describe('Kafka connection variables', () => {
  it('means no SASL and no TLS when only the brokers are set', () => {
    expect(kafkaSecurity('svc', load({}))).toEqual({ ssl: false });
  });

  it('passes SASL credentials and TLS through', () => {
    const config = load({
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'identity',
      KAFKA_SASL_PASSWORD: 'secret',
      KAFKA_SSL: 'true',
    });
    expect(kafkaSecurity('svc', config)).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'identity', password: 'secret' },
    });
  });

  it('refuses an unknown mechanism', () => {
    expect(() => load({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM is invalid/);
  });

  it('refuses half a SASL configuration, naming what is missing', () => {
    const onlyMechanism = { KAFKA_SASL_MECHANISM: 'plain' as const };
    expect(() => kafkaSecurity('svc', onlyMechanism)).toThrow(ConfigError);
    expect(() => kafkaSecurity('svc', onlyMechanism)).toThrow(/KAFKA_SASL_USERNAME is missing/);
    const onlyCredentials = { KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' };
    expect(() => kafkaSecurity('svc', onlyCredentials)).toThrow(/KAFKA_SASL_MECHANISM is missing/);
  });
});

describe('loadConfig with the Kafka variables', () => {
  it('refuses half a SASL configuration at load time', () => {
    expect(() => load({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toThrow(
      /KAFKA_SASL_MECHANISM is missing/,
    );
  });
});

describe('Kafka topic variables', () => {
  it('creates topics unless told to verify them', () => {
    expect(load({}).KAFKA_TOPIC_MODE).toBe('create');
    expect(load({ KAFKA_TOPIC_MODE: 'verify' }).KAFKA_TOPIC_MODE).toBe('verify');
    expect(() => load({ KAFKA_TOPIC_MODE: 'auto' })).toThrow(
      /KAFKA_TOPIC_MODE is invalid: must be one of create, verify/,
    );
  });

  it('reads partition overrides per catalog topic', () => {
    expect(load({}).KAFKA_TOPIC_PARTITIONS).toEqual({});
    expect(
      load({ KAFKA_TOPIC_PARTITIONS: 'queue.workflow=48, queue.default.dlq=2' }).KAFKA_TOPIC_PARTITIONS,
    ).toEqual({
      'queue.workflow': 48,
      'queue.default.dlq': 2,
    });
    for (const bad of ['queue.workflow', 'queue.workflow=0', 'queue.workflow=x', 'a b=3'])
      expect(() => load({ KAFKA_TOPIC_PARTITIONS: bad }), bad).toThrow(/KAFKA_TOPIC_PARTITIONS is invalid/);
  });
});
