import { fromJsonValue, RUN_MODES, RUN_STATUSES, toOptionalJsonValue } from '@platform/contracts';
import * as runsV1 from '@platform/contracts/platform/workflows/v1/workflow_runs';
import { readPaging } from '@platform/errors';
import { registration } from '@platform/grpc';
import type { WorkflowsDependencies } from '../deps.js';
import { getWorkflowRun, listWorkflowRuns } from '../domain/runs/read-runs.js';
import { startRun, type StartRunDeps } from '../domain/runs/start-run.js';
import { enumField } from './enum-fields.js';
import { streamUrlOf, toRun, toRunError } from './run-views.js';

export const RUNS_SERVICE_NAME = 'platform.workflows.v1.WorkflowRunsService';

/** `/workflows/{id}/run` and `/workflows/{id}/runs`: thin handlers (decode, use case, encode). */
export function workflowRunsGrpc(deps: StartRunDeps & Pick<WorkflowsDependencies, 'now'>) {
  return registration(RUNS_SERVICE_NAME, runsV1.WorkflowRunsServiceService, {
    startRun: async (request, { principal }) => {
      const run = await startRun(deps, principal, {
        workflowId: request.workflow_id,
        inputs: fromJsonValue(request.inputs),
        mode: enumField(RUN_MODES, request.mode, 'mode') ?? 'production',
        wait: request.wait,
      });
      return {
        run_id: run.id,
        status: RUN_STATUSES.toProto(run.status),
        outputs: toOptionalJsonValue(run.outputs ?? undefined),
        error: toRunError(run.error),
        stream_url: streamUrlOf(run),
      };
    },
    listRuns: async (request, { principal }) => {
      const { page, pageSize } = readPaging(request.page, request.page_size);
      const { items, total } = await listWorkflowRuns(deps, principal, request.workflow_id, page, pageSize);
      const now = deps.now();
      return {
        items: items.map(({ run, nodes }) => toRun(run, nodes, now)),
        total,
        page,
        page_size: pageSize,
      };
    },
    getRun: async (request, { principal }) => {
      const { run, nodes } = await getWorkflowRun(deps, principal, request.workflow_id, request.run_id);
      return toRun(run, nodes, deps.now());
    },
  });
}
