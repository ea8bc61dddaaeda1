import { ConfigError, type KafkaTopicMode } from '@platform/config';
import { checkTopics, type KafkaClient, type PartitionOverrides } from '@platform/kafka';
import type { Logger } from '@platform/logger';

/** Exit code for a configuration error (EX_CONFIG): a missing topic is the deployment's to fix. */
const EXIT_CONFIG = 78;

/** Raised at start in `verify` mode when topics are missing or too small; exits 78. */
export class TopicsNotProvisionedError extends ConfigError {
  constructor(service: string, problems: string[]) {
    super(service, [
      ...problems,
      'fix: provision the topics from the catalog with the kafka-topics command (`node dist/main.js kafka-topics`, the kafka-topics Job in Kubernetes, or the Strimzi KafkaTopic objects; deploy/README.md "Kafka topics"), or let services create them with KAFKA_TOPIC_MODE=create',
    ]);
    this.name = 'TopicsNotProvisionedError';
  }
}

export interface RequireTopicsOptions {
  service: string;
  kafka: KafkaClient;
  logger: Logger;
  config: { KAFKA_TOPIC_MODE?: KafkaTopicMode; KAFKA_TOPIC_PARTITIONS?: PartitionOverrides };
  /** The topics this process produces to or consumes, as named on the wire (prefixes included). */
  topics: string[];
  /** How long the start waits for Kafka to answer before it goes on and checks in the background. */
  waitMs?: number;
  /** What a late finding does (default: log and exit 78); tests replace it. */
  onLateProblems?: (error: TopicsNotProvisionedError) => void;
}

const timeout = (ms: number) =>
  new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(`Kafka did not answer within ${ms} ms`)), ms).unref();
  });

/**
 * In `verify` mode, checks that every topic this service uses exists with at least the catalog's
 * partitions, and throws TopicsNotProvisionedError (exit 78 from runService) naming each problem.
 * Kafka down at start must not stop a service that can serve from its outbox meanwhile: when the
 * brokers do not answer within `waitMs` (10 s) the service starts and the check goes on in the
 * background with back-off; should it then find a problem, the process exits 78. `create` mode
 * checks nothing (the service creates what it needs).
 */
export async function requireKafkaTopics(options: RequireTopicsOptions): Promise<void> {
  if ((options.config.KAFKA_TOPIC_MODE ?? 'create') !== 'verify') return;
  const { kafka, logger, service, topics } = options;
  const overrides = options.config.KAFKA_TOPIC_PARTITIONS ?? {};
  const check = () => checkTopics(kafka, topics, overrides);
  let problems: string[];
  try {
    problems = await Promise.race([check(), timeout(options.waitMs ?? 10_000)]);
  } catch (error) {
    logger.warn(
      { err: error },
      'could not verify the kafka topics at start (Kafka unreachable?); checking in the background',
    );
    verifyInBackground(options, check);
    return;
  }
  if (problems.length > 0) throw new TopicsNotProvisionedError(service, problems);
  logger.info({ topics: topics.length }, 'kafka topics verified');
}

function verifyInBackground(options: RequireTopicsOptions, check: () => Promise<string[]>): void {
  const { logger, service } = options;
  const onLate =
    options.onLateProblems ??
    ((error: TopicsNotProvisionedError) => {
      logger.fatal({ problems: error.problems }, error.message);
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_CONFIG);
    });
  let delay = 1_000;
  let stopped = false;
  const unregister = options.kafka.onDisconnect(async () => {
    stopped = true;
  }, 'consumer');
  const attempt = () => {
    if (stopped) return;
    check().then(
      (problems) => {
        unregister();
        if (problems.length > 0) onLate(new TopicsNotProvisionedError(service, problems));
        else logger.info('kafka topics verified');
      },
      (error: unknown) => {
        logger.warn({ err: error, retry_in_ms: delay }, 'kafka topics not verified yet; retrying');
        setTimeout(attempt, delay).unref();
        delay = Math.min(delay * 2, 30_000);
      },
    );
  };
  attempt();
}
