import { z } from 'zod';
import { kafkaShape } from './kafka-env.js';
import { loadConfig } from './load-config.js';

const kafkaOnlySchema = z.object(kafkaShape);
export type KafkaOnlyConfig = z.infer<typeof kafkaOnlySchema>;

/**
 * Only the Kafka variables (brokers, security, topic mode and partitions): for a one-shot command
 * such as `kafka-topics`, which must not need the service's other secrets.
 */
export function loadKafkaOnlyConfig(
  name: string,
  source: Record<string, string | undefined> = process.env,
): KafkaOnlyConfig {
  return loadConfig(name, kafkaOnlySchema, source);
}
