// A delivery worker as a separate process, for the "worker killed mid-send" test: the built
// delivery side (run `pnpm run build` first) on the test's database and queue, with the site
// settings given as JSON in SETTINGS_JSON. Prints "ready" once started; the test SIGKILLs it.
import { createKafka, createProducer } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { connectMongo } from '@platform/mongo';
import { createRedis } from '@platform/redis';
import { loadNotificationsConfig } from '../../dist/config.js';
import { createDelivery, startDeliveryWorkers } from '../../dist/delivery-area.js';

const config = loadNotificationsConfig(process.env);
const logger = createLogger('delivery-worker-process', process.env.LOG_LEVEL ?? 'silent');
const connection = await connectMongo(config.MONGO_URL, { logger });
const redis = createRedis(config.REDIS_URL, { logger });
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'delivery-worker-process', logger });
const settings = JSON.parse(process.env.SETTINGS_JSON ?? '{}');
const deps = {
  connection,
  redis,
  kafka,
  producer: createProducer(kafka),
  logger,
  config,
  settings: { get: async () => settings },
  directory: {
    contacts: async () => [],
    teamMemberIds: async () => ({ found: false, ids: [], next: '' }),
    activeUserIds: async () => ({ ids: [], next: '' }),
  },
};
startDeliveryWorkers(deps, createDelivery(deps));
process.stdout.write('ready\n');
