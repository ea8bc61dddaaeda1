import { ConfigError, env, loadConfig } from '@platform/config';
import type { Logger } from '@platform/logger';
import { closeMongo, connectMongo, missingIndexes, syncIndexes, type Connection } from '@platform/mongo';
import type { ServiceCommand } from '@platform/runtime';
import { z } from 'zod';
import { notificationModels } from './data/models.js';
import { DeliveriesRepository } from './delivery/deliveries-repository.js';

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

/** Both sides' models (in-app and delivery), so every declared index is covered. */
function registerEveryModel(connection: Connection): void {
  notificationModels(connection);
  new DeliveriesRepository(connection);
}

/**
 * Start-up: build the indexes (MIGRATE_ON_START=true), or only check them. A missing unique index
 * is a missing constraint: refused (exit 78, run the migrate Job). A missing plain index only costs
 * speed, and FerretDB cannot build some at all (syncIndexes skips those): a warning.
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
  const missing = await missingIndexes(connection);
  const unique = missing.filter((index) => index.unique).map((i) => `${i.collection}.${i.name}`);
  const plain = missing.filter((index) => !index.unique).map((i) => `${i.collection}.${i.name}`);
  if (plain.length > 0) logger.warn({ indexes: plain }, 'indexes missing (run the migrate Job)');
  if (unique.length > 0) {
    throw new ConfigError('notifications', [
      `MongoDB lacks unique indexes this release needs: ${unique.join(', ')}. Fix: run this ` +
        `release's migrate Job (node dist/main.js migrate, same image), or set MIGRATE_ON_START=true.`,
    ]);
  }
}
