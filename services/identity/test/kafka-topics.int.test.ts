// The topic catalog against the real local Kafka: the `kafka-topics` command (run from identity's
// build, as the Job runs it) provisions every topic under a unique prefix, idempotently, raising
// but never lowering partitions; a service in KAFKA_TOPIC_MODE=verify refuses to start (exit 78,
// naming the topic and the fix) while a topic it uses is missing or too small, and starts once
// the topics are right.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  catalogEntry,
  createKafka,
  deleteTopics,
  ensureTopics,
  platformTopics,
  Topics,
  topicPartitionCounts,
  type KafkaClient,
} from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { requireKafkaTopics, type TopicsNotProvisionedError } from '@platform/runtime';
import { stackEnv, startServiceProcess, uniqueName } from '@platform/testing';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const logger = createLogger('kafka-topics-test', process.env.TEST_LOG_LEVEL ?? 'silent');

interface CommandRun {
  code: number | null;
  output: string;
  /** The command's "kafka topics provisioned" log record. */
  report?: { created: string[]; raised: { topic: string; from: number; to: number }[]; configured: string[] };
}

/** `node dist/main.js kafka-topics` with nothing but the Kafka variables (no service secrets). */
function runCommand(args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  const child = spawn(process.execPath, [MAIN, 'kafka-topics', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return new Promise((resolve) => {
    // `close`, not `exit`: the output is complete only once the pipes closed.
    child.on('close', (code) => {
      const output = chunks.join('');
      const report = output
        .split('\n')
        .filter((line) => line.includes('kafka topics provisioned'))
        .map((line) => JSON.parse(line) as CommandRun['report'])[0];
      resolve({ code, output, report });
    });
  });
}

const planned = (name: string) => catalogEntry(name)!.partitions;

describe('kafka-topics command', () => {
  const prefix = `${uniqueName('kt')}.`;
  let kafka: KafkaClient;

  beforeAll(() => {
    kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'kafka-topics-test', logger });
  });
  afterAll(async () => {
    await deleteTopics(kafka, platformTopics(prefix));
    await kafka.disconnect();
  });

  it('creates every catalog topic with its partitions, then changes nothing on a second run', async () => {
    const first = await runCommand([`--prefix=${prefix}`]);
    expect(first.code, first.output).toBe(0);
    expect([...first.report!.created].sort()).toEqual(platformTopics(prefix).sort());
    const counts = await topicPartitionCounts(kafka, platformTopics(prefix));
    for (const name of platformTopics()) expect(counts[`${prefix}${name}`], name).toBe(planned(name));

    // Idempotent: the configs read back equal the catalog's, so nothing is created, raised or set.
    const second = await runCommand([`--prefix=${prefix}`]);
    expect(second.code, second.output).toBe(0);
    expect(second.report).toMatchObject({ created: [], raised: [], configured: [] });
  });

  it('raises partitions below the catalog (KAFKA_TOPIC_PARTITIONS) and never lowers them', async () => {
    const topic = `${prefix}queue.workflow`;
    const wider = planned('queue.workflow') + 2;
    const raised = await runCommand([`--prefix=${prefix}`], {
      KAFKA_TOPIC_PARTITIONS: `queue.workflow=${wider}`,
    });
    expect(raised.code, raised.output).toBe(0);
    expect(raised.report!.raised).toEqual([{ topic, from: planned('queue.workflow'), to: wider }]);
    expect((await topicPartitionCounts(kafka, [topic]))[topic]).toBe(wider);

    const lower = await runCommand([`--prefix=${prefix}`], { KAFKA_TOPIC_PARTITIONS: 'queue.workflow=2' });
    expect(lower.code, lower.output).toBe(0);
    expect(lower.report!.raised).toEqual([]);
    expect(lower.output).toContain('partitions are never lowered');
    expect((await topicPartitionCounts(kafka, [topic]))[topic]).toBe(wider);
  });

  it('refuses an override of a topic the catalog does not have (exit 78)', async () => {
    const run = await runCommand([], { KAFKA_TOPIC_PARTITIONS: 'queue.nope=3' });
    expect(run.code).toBe(78);
    expect(run.output).toContain('KAFKA_TOPIC_PARTITIONS names queue.nope');
  });
});

describe('KAFKA_TOPIC_MODE=verify', () => {
  const prefix = `${uniqueName('kv')}.`;
  const queue = `${prefix}queue.default`;
  // Identity's unprefixed topics are the local stack's, whatever their partition count: the
  // override makes them pass, so only the prefixed queue decides.
  const shared = [Topics.NOTIFICATION_EVENTS, Topics.DOMAIN_EVENTS, `${Topics.DOMAIN_EVENTS}.dlq`];
  const env = {
    KAFKA_TOPIC_MODE: 'verify',
    QUEUE_TOPIC_PREFIX: prefix,
    KAFKA_TOPIC_PARTITIONS: shared.map((t) => `${t}=1`).join(','),
  };
  let kafka: KafkaClient;

  beforeAll(async () => {
    kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'kafka-verify-test', logger });
    await ensureTopics(kafka, shared);
  });
  afterAll(async () => {
    await deleteTopics(kafka, platformTopics(prefix));
    await kafka.disconnect();
  });

  it('refuses to start while a topic it uses is missing, naming it and the fix', async () => {
    const start = startServiceProcess('identity', { env });
    await expect(start).rejects.toThrow(/identity exited with 78/);
    const message = String(await start.catch((error: Error) => error.message));
    expect(message).toContain(`${queue} is missing`);
    expect(message).toContain('kafka-topics');
  });

  it('refuses to start while a topic has fewer partitions than the catalog', async () => {
    await ensureTopics(kafka, [{ topic: queue, partitions: 2 }]);
    const start = startServiceProcess('identity', { env });
    const message = String(
      await start.then(
        () => 'started',
        (error: Error) => error.message,
      ),
    );
    expect(message).toMatch(/identity exited with 78/);
    expect(message).toContain(`${queue} has 2 partitions, the catalog asks for ${planned('queue.default')}`);
  });

  it('starts once the kafka-topics command provisioned them', async () => {
    const run = await runCommand([`--prefix=${prefix}`]);
    expect(run.code, run.output).toBe(0);
    expect(run.report!.raised).toContainEqual({ topic: queue, from: 2, to: planned('queue.default') });
    const identity = await startServiceProcess('identity', { env });
    await identity.stop();
  });
});

describe('the start check when Kafka answers late', () => {
  const missing = `${uniqueName('kl')}.queue.workflow`;

  it('lets the service start when Kafka does not answer in time', async () => {
    const down = createKafka({ brokers: ['127.0.0.1:1'], clientId: 'kafka-down-test', logger, retries: 0 });
    const started = Date.now();
    await requireKafkaTopics({
      service: 'identity',
      kafka: down,
      logger,
      config: { KAFKA_TOPIC_MODE: 'verify' },
      topics: [missing],
      waitMs: 200,
      onLateProblems: () => undefined,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await down.disconnect();
  });

  it('reports a missing topic found in the background (the process then exits 78)', async () => {
    const kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'kafka-late-test', logger });
    const late = new Promise<TopicsNotProvisionedError>((resolve) => {
      // waitMs 1: the start goes on before Kafka could answer; the background check finds it.
      void requireKafkaTopics({
        service: 'identity',
        kafka,
        logger,
        config: { KAFKA_TOPIC_MODE: 'verify' },
        topics: [missing],
        waitMs: 1,
        onLateProblems: resolve,
      });
    });
    const error = await late;
    expect(error.problems[0]).toBe(`${missing} is missing`);
    expect(error.message).toContain('kafka-topics');
    await kafka.disconnect();
  });
});
