/**
 * The process-wide bound on aggregate queries (`DB_AGGREGATE_CONCURRENCY`): every aggregate query
 * of every endpoint passes here, so a burst of cold dashboards queues in the process instead of
 * taking every Postgres connection.
 */
export class AggregateGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new Error(`DB_AGGREGATE_CONCURRENCY must be an integer > 0, got ${String(limit)}`);
    }
  }

  /** Queries running right now (tests check the bound holds). */
  get active(): number {
    return this.running;
  }

  async run<T>(query: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await query();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` never exceeds the limit.
      if (next) next();
      else this.running -= 1;
    }
  }
}
