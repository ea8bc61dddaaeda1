// Provisions the platform's Kafka topics on the local broker from the one catalog
// (packages/kafka/src/topic-catalog.ts), as the `kafka-topics` command does in a deployment:
// creates what is missing, raises partitions below the catalog, sets the topic configs; the
// replication factor and min.insync.replicas are capped by the one local broker. Producers never
// auto-create topics, so this runs before the services start (services.sh).
import { createKafka, provisionTopics } from '../../packages/kafka/dist/index.js';
import { createLogger } from '../../packages/logger/dist/index.js';

const logger = createLogger('ensure-topics', 'warn');
const kafka = createKafka({
  brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(','),
  clientId: 'ensure-topics',
  logger,
});
try {
  const report = await provisionTopics(kafka, { logger });
  if (report.created.length > 0) console.log(`created topics: ${report.created.join(', ')}`);
  for (const { topic, from, to } of report.raised)
    console.log(`raised ${topic}: ${from} -> ${to} partitions`);
} finally {
  await kafka.disconnect();
}
