import type { Pool } from '@platform/db';
import { findRunById, listEventsAfter, type RunRow } from '../../data/runs-repository.js';
import type { RunEventsFeed } from './run-ports.js';

const PAGE = 500;
/** A follower with nothing new re-reads at least this often (covers a missed NOTIFY). */
const RECHECK_MS = 5_000;
const TERMINAL = new Set(['success', 'failed', 'timeout']);

export interface RunEventMessage {
  seq: number;
  type: string;
  data: unknown;
  created_at: string;
}

/**
 * The run's event log from `after` on: everything after it from the table, then the live tail,
 * woken by the feed (the process's LISTEN). Reading `seq > last sent` each time is what makes a
 * resumed stream exact: no gap, no duplicate, whatever happened to the gateway, the worker or the
 * notifications in between. Returns after `run_finished`, when the run is over and its log is
 * read, or when `signal` aborts.
 */
export async function followRunEvents(
  deps: { pool: Pool; listener: RunEventsFeed },
  run: Pick<RunRow, 'id'>,
  after: number,
  signal: AbortSignal,
  send: (event: RunEventMessage) => Promise<void>,
): Promise<void> {
  let last = after;
  let pending = true;
  let wake: (() => void) | undefined;
  const unfollow = deps.listener.follow(run.id, () => {
    pending = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    while (!signal.aborted) {
      pending = false;
      const events = await listEventsAfter(deps.pool, run.id, last, PAGE);
      for (const event of events) {
        await send({
          seq: Number(event.seq),
          type: event.type,
          data: event.data,
          created_at: event.created_at.toISOString(),
        });
        last = Number(event.seq);
        if (event.type === 'run_finished') return;
      }
      if (events.length === PAGE || pending) continue;
      // Nothing left and the run is over: its log ended earlier (or was purged after retention).
      const current = await findRunById(deps.pool, run.id);
      if (!current || (TERMINAL.has(current.status) && last >= Number(current.last_event_seq))) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECHECK_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (pending || signal.aborted) wake();
      });
      wake = undefined;
    }
  } finally {
    unfollow();
    signal.removeEventListener('abort', onAbort);
  }
}
