import { ConfigError, kafkaSecurity, loadKafkaOnlyConfig, type KafkaOnlyConfig } from '@platform/config';
import { catalogEntry, createKafka, provisionTopics } from '@platform/kafka';
import type { ServiceCommand } from './commands.js';

/** `--prefix=<p>` names every topic `<p><name>` (tests; production passes none). */
function prefixOf(args: string[]): string {
  const arg = args.find((a) => a.startsWith('--prefix='));
  const prefix = arg?.slice('--prefix='.length) ?? '';
  if (!/^[A-Za-z0-9._-]*$/.test(prefix))
    throw new Error(`--prefix must match [A-Za-z0-9._-]*, got "${prefix}"`);
  return prefix;
}

/**
 * `node dist/main.js kafka-topics [--prefix=<p>]` (every service's image; the kafka-topics Job
 * runs it with identity's): makes the cluster match the topic catalog — creates missing topics,
 * raises partitions below the catalog (never lowers them), sets min.insync.replicas, retention and
 * cleanup policy. Idempotent: a second run changes nothing. A config error exits 78.
 */
export const kafkaTopicsCommand: ServiceCommand = async ({ logger, args }) => {
  // Only the Kafka variables: none of the service's other secrets, so the Job runs with a Kafka
  // user of its own and nothing else.
  let config: KafkaOnlyConfig;
  try {
    config = loadKafkaOnlyConfig('kafka-topics');
    const unknown = Object.keys(config.KAFKA_TOPIC_PARTITIONS).filter((name) => !catalogEntry(name));
    if (unknown.length > 0)
      throw new ConfigError(
        'kafka-topics',
        unknown.map((name) => `KAFKA_TOPIC_PARTITIONS names ${name}, which is not in the topic catalog`),
      );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'kafka-topics',
    logger,
    ...kafkaSecurity('kafka-topics', config),
  });
  try {
    await provisionTopics(kafka, {
      prefix: prefixOf(args),
      partitionOverrides: config.KAFKA_TOPIC_PARTITIONS,
      logger,
    });
  } finally {
    await kafka.disconnect();
  }
};
