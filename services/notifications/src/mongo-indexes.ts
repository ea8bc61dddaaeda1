import { ConfigError, env, loadConfig } from '@platform/config';
import type { Logger } from '@platform/logger';
import { closeMongo, connectMongo, missingIndexes, syncIndexes, type Connection } from '@platform/mongo';
import type { ServiceCommand } from '@platform/runtime';
import { z } from 'zod';
import { channelTestAuditModel, deliveryModel, notificationModels } from './data/models.js';
import { DeliveriesRepository } from './data/deliveries-repository.js';

/**
 * Notifications keeps MongoDB, whose only "migration" is its indexes. `migrate` builds them
 * (syncIndexes) with nothing but MONGO_URL; MIGRATE_ON_START=false makes start-up check instead.
 */
export const migrateIndexesCommand: ServiceCommand = async ({ name, logger }) => {
  const { MONGO_URL } = loadConfig(name, z.object({ MONGO_URL: env.mongoUrl() }));
  const connection = await connectMongo(MONGO_URL, { logger, appName: `${name}-migrate` });
  try {
    registerEveryModel(connection);
    const report = await syncIndexes(connection, { logger });
    logger.info(
      { created: report.created, dropped: report.dropped, skipped: report.skipped.length },
      report.created.length || report.dropped.length ? 'indexes synced' : 'indexes already current',
    );
  } finally {
    await closeMongo(connection);
  }
};

/**
 * Both sides' models (in-app and delivery, as the service registers them at start), so every
 * declared index is covered; the migrate-indexes test checks that the service finds none missing.
 */
function registerEveryModel(connection: Connection): void {
  notificationModels(connection);
  deliveryModel(connection);
  new DeliveriesRepository(connection); // its claims model
  channelTestAuditModel(connection);
}

/**
 * Start-up: build the indexes (MIGRATE_ON_START=true), or only check them and refuse (exit 78, run
 * the migrate Job) when one is missing: every inbox and delivery query relies on one (without it, a
 * scan of the whole collection: 9 s at 1 M notifications on FerretDB). FerretDB builds all of them
 * today; an index a server cannot build (syncIndexes skips it with a warning) would keep a service
 * with MIGRATE_ON_START=false from starting: the message names it.
 */
export async function prepareIndexes(
  connection: Connection,
  migrateOnStart: boolean,
  logger: Logger,
): Promise<void> {
  if (migrateOnStart) {
    await syncIndexes(connection, { logger });
    return;
  }
  const missing = (await missingIndexes(connection)).map((index) => `${index.collection}.${index.name}`);
  if (missing.length > 0) {
    throw new ConfigError('notifications', [
      `MongoDB lacks indexes this release needs: ${missing.join(', ')}. Fix: run this ` +
        `release's migrate Job (node dist/main.js migrate, same image), or set MIGRATE_ON_START=true.`,
    ]);
  }
  logger.info('indexes checked (MIGRATE_ON_START=false)');
}
