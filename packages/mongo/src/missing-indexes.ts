import type { Connection } from 'mongoose';
import { indexName } from './indexes.js';

export interface MissingIndex {
  collection: string;
  name: string;
  unique: boolean;
}

/**
 * The indexes the registered schemas declare that the database lacks, read without building any
 * (what a service started with MIGRATE_ON_START=false checks; `syncIndexes` builds them). A missing
 * collection counts as missing all of its indexes.
 */
export async function missingIndexes(
  connection: Connection,
  modelNames: string[] = connection.modelNames(),
): Promise<MissingIndex[]> {
  const missing: MissingIndex[] = [];
  for (const modelName of modelNames) {
    const model = connection.model(modelName);
    const collection = model.collection.collectionName;
    const existing = new Set(
      (
        await model.collection.indexes().catch((err: { code?: number }) => {
          if (err.code === 26) return []; // 26 NamespaceNotFound: the collection does not exist yet
          throw err;
        })
      ).map((index) => index.name ?? ''),
    );
    for (const [fields, options] of model.schema.indexes()) {
      const name = typeof options.name === 'string' ? options.name : indexName(fields);
      if (!existing.has(name)) missing.push({ collection, name, unique: options.unique === true });
    }
  }
  return missing;
}
