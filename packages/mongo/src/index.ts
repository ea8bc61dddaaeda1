export {
  connectMongo,
  closeMongo,
  syncIndexes,
  isDuplicateKeyError,
  type ConnectMongoOptions,
  type Connection,
} from './connect.js';
