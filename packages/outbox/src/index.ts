export { enqueueEvent, OUTBOX_TABLE_SQL, type OutboxEvent, type Queryable } from './outbox-store.js';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
