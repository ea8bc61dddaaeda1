import pLimit, { type LimitFunction } from 'p-limit';

/**
 * The process-wide bound on aggregate queries (`DB_AGGREGATE_CONCURRENCY`): every aggregate query
 * of every endpoint passes here, so a burst of cold dashboards queues in the process instead of
 * taking every Postgres connection. A plain FIFO concurrency limit: p-limit.
 */
export class AggregateGate {
  private readonly limiter: LimitFunction;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new Error(`DB_AGGREGATE_CONCURRENCY must be an integer > 0, got ${String(limit)}`);
    }
    this.limiter = pLimit(limit);
  }

  /** Queries running right now (tests check the bound holds). */
  get active(): number {
    return this.limiter.activeCount;
  }

  run<T>(query: () => Promise<T>): Promise<T> {
    return this.limiter(query);
  }
}
