import { toJsonValue } from '@platform/contracts';
import * as runsV1 from '@platform/contracts/platform/workflows/v1/workflow_runs';
import { BusinessError } from '@platform/errors';
import { registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import type { FollowerSlots } from '../data/follower-slots.js';
import { findRunById, listEventsAfter } from '../data/runs-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { limitReached } from '../domain/runs/fairness-limits.js';
import type { RunEventsListener } from '../events/run-events-listener.js';
import { loadRunFor, type ReadRunsDeps } from '../domain/runs/read-runs.js';

export const RUN_STREAM_SERVICE_NAME = 'platform.workflows.v1.WorkflowRunStreamService';
const PAGE = 500;
/** A follower with nothing new re-reads at least this often (covers a missed NOTIFY). */
const RECHECK_MS = 5_000;
const TERMINAL = new Set(['success', 'failed', 'timeout']);

/**
 * The run's event log as a server stream: everything after `after_seq` from the table, then the
 * live tail, woken by the process's LISTEN (run-events-listener.ts). Reading `seq > last sent`
 * each time is what makes a resumed stream exact: no gap, no duplicate, whatever happened to the
 * gateway, the worker or the notifications in between. Ends after `run_finished`.
 */
export function runStreamGrpc(
  deps: ReadRunsDeps &
    Pick<WorkflowsDependencies, 'config'> & { listener: RunEventsListener; followers: FollowerSlots },
) {
  return registration(RUN_STREAM_SERVICE_NAME, runsV1.WorkflowRunStreamServiceService, {
    streamRunEvents: async (request, { principal, signal, begin }, send) => {
      if (!Number.isSafeInteger(request.after_seq) || request.after_seq < 0) {
        throw BusinessError.validation({ after_seq: ['must be a whole number of at least 0'] });
      }
      const run = await loadRunFor(deps, principal, request.workflow_id, request.run_id);
      const limit = deps.config.RUN_STREAMS_PER_USER;
      const place = await deps.followers.take('streams', requirePrincipal(principal).user_id, limit);
      if (!place) throw limitReached('open_streams', 'user', limit);
      begin(); // access checked: the gateway may answer 200 and stream even before the next event
      let last = request.after_seq;
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
              data: toJsonValue(event.data),
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
        void place.release();
        unfollow();
        signal.removeEventListener('abort', onAbort);
      }
    },
  });
}
