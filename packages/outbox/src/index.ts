export {
  enqueueEvent,
  enqueueEvents,
  enqueueTask,
  OUTBOX_CHANNEL,
  OUTBOX_TABLE_SQL,
  outboxTraceContext,
  type OutboxEvent,
  type OutboxTask,
  type Queryable,
} from './outbox-store.js';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
