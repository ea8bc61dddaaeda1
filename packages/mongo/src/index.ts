export {
  connectMongo,
  closeMongo,
  isDuplicateKeyError,
  type ConnectMongoOptions,
  type Connection,
} from './connect.js';
export { syncIndexes, indexName, type SyncIndexesOptions, type SyncIndexesReport } from './indexes.js';
export { missingIndexes, type MissingIndex } from './missing-indexes.js';
