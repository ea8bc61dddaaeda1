import { openListenConnection, type ListenConnection, type Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { RUN_EVENTS_CHANNEL } from '../data/run-events.js';
import type { RunEventsFeed } from '../domain/runs/run-ports.js';

type Wake = () => void;

/**
 * One LISTEN connection per process on `workflow_run_events`, fanned out to whoever follows a run
 * (streams, `wait: true` starts). A notification only says "look again": followers re-read
 * `seq > last seen` from the table, so a lost, duplicated or reordered NOTIFY never makes a gap
 * or a duplicate. `safetyMs` wakes every follower periodically anyway, covering a dropped LISTEN
 * connection (it is re-opened) and events written by a server that could not NOTIFY.
 */
export class RunEventsListener implements RunEventsFeed {
  private readonly followers = new Map<string, Set<Wake>>();
  private connection: ListenConnection | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    safetyMs = 2_000,
  ) {
    this.timer = setInterval(() => {
      this.wakeAll();
      if (!this.connection?.alive && this.followers.size > 0) void this.connect();
    }, safetyMs);
    this.timer.unref();
  }

  /** Calls `wake` whenever the run may have new events, until the returned function is called. */
  follow(runId: string, wake: Wake): () => void {
    let set = this.followers.get(runId);
    if (!set) this.followers.set(runId, (set = new Set()));
    set.add(wake);
    void this.connect();
    return () => {
      set.delete(wake);
      if (set.size === 0) this.followers.delete(runId);
    };
  }

  /**
   * Wakes the followers of one run now: this process's worker has just committed its end, so its
   * own waits need not wait for the NOTIFY to come back over the LISTEN connection.
   */
  wakeRun(runId: string): void {
    for (const wake of this.followers.get(runId) ?? []) wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.connecting;
    await this.connection?.close();
    this.connection = undefined;
  }

  private wakeAll(): void {
    for (const set of this.followers.values()) for (const wake of set) wake();
  }

  private connect(): Promise<void> {
    if (this.connection?.alive || this.closed) return Promise.resolve();
    this.connecting ??= (async () => {
      try {
        const connection = await openListenConnection(this.pool, RUN_EVENTS_CHANNEL, {
          onNotification: (payload) => {
            const runId = payload?.split(':')[0];
            for (const wake of (runId && this.followers.get(runId)) || []) wake();
          },
          onLost: (error) =>
            this.logger.warn({ err: error }, 'run events LISTEN connection lost; re-opening'),
        });
        if (this.closed) await connection.close();
        else this.connection = connection;
      } catch (error) {
        this.logger.warn({ err: error }, 'run events LISTEN failed; following by polling until it works');
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }
}
