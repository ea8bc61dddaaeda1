import { openListenConnection, withTransaction, type ListenConnection, type Pool } from '@platform/db';
import type { Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { countRelayed, watchOutbox } from './outbox-metrics.js';
import { OUTBOX_CHANNEL } from './outbox-store.js';
import { publishSpans } from './relay-spans.js';

export interface OutboxRelayOptions {
  pool: Pool;
  producer: Producer;
  logger: Logger;
  /** Poll interval when no NOTIFY arrives (missed notifications, other replicas' rows). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Back-off after a failed publish, doubling up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long the outbox gauges reuse one reading (default 5 s; tests shorten it). */
  gaugeCacheMs?: number;
}

interface OutboxRow {
  seq: string;
  topic: string;
  key: string;
  type: string;
  event_id: string;
  value: object;
  request_id: string | null;
  trace_context: string | null;
}

/**
 * Publishes outbox rows to Kafka and deletes them once Kafka acknowledged. Rows are claimed (and
 * deleted, uncommitted) with `FOR UPDATE SKIP LOCKED` inside a transaction, so several replicas
 * share the work and a failed publish rolls the claim back: the rows stay and are retried after a
 * back-off. Delivery is at least once; consumers de-duplicate by `x-message-id`.
 */
export class OutboxRelay {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: ListenConnection | undefined;
  private draining: Promise<void> | undefined;
  private wakeRequested = false;
  private backoff = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    watchOutbox(options.pool, options.logger, options.gaugeCacheMs);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listen();
    this.wake();
  }

  /**
   * LISTEN on a dedicated connection. A connection that drops (Postgres restarted, the backend
   * terminated) is re-opened at the next poll; meanwhile polling delivers everything, NOTIFY only
   * makes it prompt.
   */
  private async listen(): Promise<void> {
    if (this.listener?.alive || !this.running) return;
    try {
      const listener = await openListenConnection(this.options.pool, OUTBOX_CHANNEL, {
        onNotification: () => this.wake(),
        onLost: (error) =>
          this.options.logger.warn({ err: error }, 'outbox relay LISTEN connection lost; re-opening'),
      });
      if (this.running) this.listener = listener;
      else await listener.close();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'outbox relay could not LISTEN; polling only');
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
    await this.listener?.close();
    this.listener = undefined;
  }

  /** Publishes everything pending now (tests and shutdown); resolves when the outbox is empty or publishing failed. */
  async flush(): Promise<void> {
    while (await this.publishBatch()) {
      // keep going until a batch comes back short
    }
  }

  private wake(): void {
    if (!this.running) return;
    if (this.draining) {
      this.wakeRequested = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (!this.running) return;
      if (this.wakeRequested && this.backoff === 0) {
        this.wakeRequested = false;
        this.wake();
        return;
      }
      this.wakeRequested = false;
      const delay = this.backoff || (this.options.pollIntervalMs ?? 1_000);
      this.timer = setTimeout(() => {
        if (!this.listener?.alive) void this.listen();
        this.wake();
      }, delay);
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.running && (await this.publishBatch())) {
        // a full batch: there may be more
      }
      this.backoff = 0;
    } catch (error) {
      const base = this.options.backoffMs ?? 500;
      this.backoff = Math.min(this.backoff ? this.backoff * 2 : base, this.options.maxBackoffMs ?? 30_000);
      this.options.logger.warn(
        { err: error, retry_in_ms: this.backoff },
        'outbox publish failed; events kept for retry',
      );
    }
  }

  /** Claims, publishes and deletes one batch; true when the batch was full. */
  private async publishBatch(): Promise<boolean> {
    const batchSize = this.options.batchSize ?? 100;
    return withTransaction(this.options.pool, async (client) => {
      // Claimed and deleted in one statement; the delete commits only after Kafka acknowledged the
      // batch (a failed publish rolls it back, the rows stay).
      const { rows } = await client.query<OutboxRow>(
        `DELETE FROM outbox WHERE seq IN (
           SELECT seq FROM outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING seq, topic, key, type, event_id, value, request_id, trace_context`,
        [batchSize],
      );
      // RETURNING has no order: publish in the outbox's.
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      // Each row under a producer span that continues the trace of the request that wrote it.
      const spans = publishSpans(rows);
      try {
        // One produce request for the whole batch (not one acknowledged round trip per row).
        await this.options.producer.publishMany(
          rows.map((row, i) => ({
            topic: row.topic,
            message: {
              key: row.key,
              value: row.value,
              type: row.type,
              id: row.event_id,
              headers: {
                ...(row.request_id ? { 'x-request-id': row.request_id } : {}),
                ...spans.headers[i],
              },
            },
          })),
        );
      } catch (error) {
        spans.end(error);
        countRelayed('failed', rows.length);
        throw error;
      }
      spans.end();
      countRelayed('ok', rows.length);
      return rows.length === batchSize;
    });
  }
}
