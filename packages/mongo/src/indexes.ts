import type { Connection } from 'mongoose';
import { createLogger, type Logger } from '@platform/logger';

export interface SyncIndexesOptions {
  logger?: Logger;
  /** Only these models; default every model registered on the connection. */
  modelNames?: string[];
  /** Drop indexes (by name) that no schema declares any more. Default true. */
  dropStale?: boolean;
}

export interface SyncIndexesReport {
  created: string[];
  dropped: string[];
  /** Non-unique indexes the server does not implement (FerretDB: TTL, collation, partial, text). */
  skipped: { collection: string; name: string; reason: string }[];
}

const NOT_IMPLEMENTED = 238;

/** MongoDB's default index name: `field_1_other_-1`. */
export function indexName(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, direction]) => `${key}_${String(direction)}`)
    .join('_');
}

/**
 * Creates the indexes every schema declares and, by name, drops the ones no schema declares any
 * more. Run at start-up, before serving, so a unique index that cannot be built stops the service.
 *
 * Unlike mongoose's `Model.syncIndexes()`, indexes are compared by name only: FerretDB does not
 * report every option back (e.g. `sparse`), which makes mongoose drop and rebuild such an index on
 * every start, leaving a window without the constraint. An index the server does not implement
 * (error 238) is skipped with a warning when it is not unique, and fails the call when it is.
 */
export async function syncIndexes(
  connection: Connection,
  options: SyncIndexesOptions = {},
): Promise<SyncIndexesReport> {
  const logger = (options.logger ?? createLogger('mongo')).child({ component: 'mongo-indexes' });
  const report: SyncIndexesReport = { created: [], dropped: [], skipped: [] };
  for (const modelName of options.modelNames ?? connection.modelNames()) {
    const model = connection.model(modelName);
    const collection = model.collection.collectionName;
    await model.createCollection().catch((err: { code?: number }) => {
      if (err.code !== 48) throw err; // 48 NamespaceExists
    });
    const existing = new Set((await model.collection.indexes()).map((i) => i.name ?? ''));
    const declared = new Set<string>(['_id_']);
    for (const [fields, indexOptions] of model.schema.indexes()) {
      const name = typeof indexOptions.name === 'string' ? indexOptions.name : indexName(fields);
      declared.add(name);
      if (existing.has(name)) continue;
      try {
        const createOptions = { ...indexOptions, name } as Parameters<typeof model.collection.createIndex>[1];
        await model.collection.createIndex(fields as Record<string, 1 | -1>, createOptions);
        report.created.push(`${collection}.${name}`);
      } catch (err) {
        const { code, message } = err as { code?: number; message: string };
        if (code !== NOT_IMPLEMENTED || indexOptions.unique) throw err;
        logger.warn(
          { collection, index: name, reason: message },
          'index not supported by the server; skipped',
        );
        report.skipped.push({ collection, name, reason: message });
      }
    }
    if (options.dropStale === false) continue;
    for (const name of existing) {
      if (declared.has(name)) continue;
      await model.collection.dropIndex(name);
      report.dropped.push(`${collection}.${name}`);
    }
  }
  if (report.created.length || report.dropped.length) logger.info(report, 'synced mongo indexes');
  return report;
}
