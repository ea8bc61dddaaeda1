import { readFileSync } from 'node:fs';
import { buildTask, type EnqueueOptions, type QueueName } from '@platform/kafka';
import { requestContext } from '@platform/logger';
import { currentTraceparent } from '@platform/telemetry';

/** A pool or a client inside a transaction: enqueue in the same transaction as the state change. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

export interface OutboxEvent {
  topic: string;
  key: string;
  /** `x-event-type`. */
  type: string;
  /** `x-message-id`; consumers use it to handle a redelivery once. */
  id: string;
  value: object;
}

const outboxDdl = (file: string) => readFileSync(new URL(`../sql/${file}`, import.meta.url), 'utf8');

/** The DDL files, in order, that services' migrations include (`-- @include @platform/outbox/sql/…`). */
const OUTBOX_DDL_FILES = ['outbox-table.sql', 'outbox-trace-context.sql'] as const;

/** The table as it is now (every DDL file in order), for a test that makes one by hand. */
export const OUTBOX_TABLE_SQL = OUTBOX_DDL_FILES.map(outboxDdl).join('\n');

export const OUTBOX_CHANNEL = 'outbox';

/**
 * Writes an event to the service's outbox. It is published by the OutboxRelay, so an event
 * survives a Kafka outage (and, enqueued inside the state change's transaction, commits or
 * rolls back with it). A NOTIFY wakes the relay at once instead of at its next poll.
 */
export async function enqueueEvent(db: Queryable, event: OutboxEvent): Promise<void> {
  await enqueueEvents(db, [event]);
}

/**
 * Writes several events to the outbox in ONE statement (one round trip, one NOTIFY), in order:
 * what a state change publishes together (a run's fact and its notification event, say).
 */
export async function enqueueEvents(db: Queryable, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const requestId = requestContext.current()?.requestId ?? null;
  await db.query(
    `WITH inserted AS (
       INSERT INTO outbox (topic, key, type, event_id, value, request_id, trace_context)
       SELECT e.topic, e.key, e.type, e.event_id, e.value, $6, $7
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[])
              WITH ORDINALITY AS e(topic, key, type, event_id, value, ord)
        ORDER BY e.ord
       RETURNING seq
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM (SELECT 1 FROM inserted LIMIT 1) AS one`,
    [
      events.map((event) => event.topic),
      events.map((event) => event.key),
      events.map((event) => event.type),
      events.map((event) => event.id),
      events.map((event) => JSON.stringify(event.value)),
      requestId,
      outboxTraceContext(),
    ],
  );
}

/**
 * What an outbox row stores in `trace_context`: the W3C `traceparent` of the span that wrote it
 * (null outside a trace). The relay publishes the row under a producer span parented by it, so the
 * trace runs from the request through the outbox into the consumer. Code that inserts outbox rows
 * in its own SQL passes this too.
 */
export function outboxTraceContext(): string | null {
  return currentTraceparent() ?? null;
}

export interface OutboxTask<A extends object> extends EnqueueOptions {
  queue: QueueName;
  task: string;
  args: A;
  /** The service's queue-topic prefix (tests isolate their queues with one). */
  topicPrefix?: string;
}

/**
 * Writes a work-queue task (e.g. `email.send`) to the outbox: it is published when the
 * transaction commits and Kafka is reachable, never before, and never lost in between. Pass
 * `seal` for args that carry secrets: the row and the Kafka message then hold only ciphertext.
 */
export async function enqueueTask<A extends object>(db: Queryable, task: OutboxTask<A>): Promise<string> {
  const { queue, task: name, args, ...options } = task;
  const outgoing = buildTask(queue, name, args, options);
  await enqueueEvent(db, {
    topic: outgoing.topic,
    key: outgoing.key,
    type: outgoing.type,
    id: outgoing.id,
    value: outgoing.value,
  });
  return outgoing.id;
}
