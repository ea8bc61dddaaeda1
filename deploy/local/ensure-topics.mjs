// Creates every platform topic (and its dead-letter topic) on the local broker. Producers never
// auto-create topics, so this runs before the services start; in Kubernetes the same call runs as
// a deploy step (see deploy/README.md).
import { createKafka, ensureTopics, platformTopics } from '../../packages/kafka/dist/index.js';
import { createLogger } from '../../packages/logger/dist/index.js';

const kafka = createKafka({
  brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(','),
  clientId: 'ensure-topics',
  logger: createLogger('ensure-topics', 'warn'),
});
try {
  const created = await ensureTopics(kafka, platformTopics());
  if (created.length > 0) console.log(`created topics: ${created.join(', ')}`);
} finally {
  await kafka.disconnect();
}
