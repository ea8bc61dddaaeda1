import { openListenConnection, type ListenConnection, type Pool } from '@platform/db';
import type { Logger } from '@platform/logger';

/** What `hand_back_workflow_run` (migration 1768300000000) NOTIFYs with the run's id. */
export const HAND_BACK_CHANNEL = 'workflow_run_handback';

/**
 * A run worker's LISTEN on `workflow_run_handback`: a draining worker released a run, so a worker
 * with a free slot claims now rather than at its next poll (RUN_CLAIM_POLL_MS), which keeps a
 * rollout's hand-over well under a second. One connection per worker process; while it is down
 * the poll still claims, and it is re-opened on the next `reopenMs` tick.
 */
export function listenForHandBacks(
  pool: Pool,
  logger: Logger,
  onHandBack: () => void,
  reopenMs = 5_000,
): { close(): Promise<void> } {
  let connection: ListenConnection | undefined;
  let closed = false;
  let opening: Promise<void> | undefined;
  const open = () => {
    if (closed || connection?.alive || opening) return;
    opening = openListenConnection(pool, HAND_BACK_CHANNEL, {
      onNotification: onHandBack,
      onLost: (error) => logger.warn({ err: error }, 'hand-back LISTEN connection lost; re-opening'),
    })
      .then(async (opened) => {
        if (closed) await opened.close();
        else connection = opened;
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'hand-back LISTEN failed; claiming by polling'))
      .finally(() => {
        opening = undefined;
      });
  };
  open();
  const timer = setInterval(open, reopenMs);
  timer.unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await opening;
      await connection?.close();
    },
  };
}
