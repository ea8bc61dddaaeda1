import { toJsonValue } from '@platform/contracts';
import * as runsV1 from '@platform/contracts/platform/workflows/v1/workflow_runs';
import { BusinessError } from '@platform/errors';
import { registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import type { WorkflowsDependencies } from '../deps.js';
import { limitReached } from '../domain/runs/fairness-limits.js';
import { followRunEvents } from '../domain/runs/follow-run-events.js';
import type { RunEventsFeed } from '../domain/runs/run-ports.js';
import type { StartRunDeps } from '../domain/runs/start-run.js';
import { loadRunFor, type ReadRunsDeps } from '../domain/runs/read-runs.js';

export const RUN_STREAM_SERVICE_NAME = 'platform.workflows.v1.WorkflowRunStreamService';

/**
 * The run's event log as a server stream: everything after `after_seq`, then the live tail
 * (domain/runs/follow-run-events.ts). Ends after `run_finished`.
 */
export function runStreamGrpc(
  deps: ReadRunsDeps &
    Pick<WorkflowsDependencies, 'config'> &
    Pick<StartRunDeps, 'followers'> & { listener: RunEventsFeed },
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
      try {
        await followRunEvents(deps, run, request.after_seq, signal, (event) =>
          send({ ...event, data: toJsonValue(event.data) }),
        );
      } finally {
        void place.release();
      }
    },
  });
}
