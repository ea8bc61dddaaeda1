import {
  fromJsonValue,
  PRESENTATION_MODES,
  WORKFLOW_STATUSES,
  WORKFLOW_VISIBILITIES,
  workflowsV1,
  type jsonValueV1,
} from '@platform/contracts';
import { schemaVersion } from '@platform/db';
import { BusinessError } from '@platform/errors';
import { internalOnly, registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import { serviceInfoHandler } from '@platform/runtime';
import type { WorkflowsDependencies } from '../deps.js';
import { createWorkflow } from '../domain/create-workflow.js';
import { deleteWorkflow } from '../domain/delete-workflow.js';
import {
  checkPaging,
  getWorkflow,
  getWorkflowSnapshot,
  listWorkflows,
  listWorkflowSnapshots,
} from '../domain/read-workflows.js';
import { updateWorkflow } from '../domain/update-workflow.js';
import { getWorkflowNames } from '../domain/workflow-names.js';
import { parseJsonField } from '../domain/workflow-rules.js';
import {
  createWorkflowSnapshot,
  publishWorkflow,
  restoreWorkflowSnapshot,
} from '../domain/workflow-snapshots.js';
import { toSnapshot, toWorkflow } from '../domain/workflow-views.js';
import { enumField } from './enum-fields.js';
import { INTERNAL_CALLERS } from './internal-callers.js';

export const SERVICE_NAME = 'platform.workflows.v1.WorkflowsService';

/** The JSON fields of a create or update request, parsed (absent stays undefined). */
function jsonFields(request: {
  definition_json?: string;
  variables?: jsonValueV1.JsonValue;
  trigger_config?: jsonValueV1.JsonValue;
}) {
  const given = (text: string | undefined) => (text === '' ? undefined : text);
  return {
    definition: parseJsonField('definition', given(request.definition_json)),
    variables: fromJsonValue(request.variables),
    triggerConfig: fromJsonValue(request.trigger_config),
  };
}

/** Entry points of the workflows service: thin handlers that decode, call a use case, encode. */
export function workflowsGrpc(deps: WorkflowsDependencies) {
  const service = registration(SERVICE_NAME, workflowsV1.WorkflowsServiceService, {
    getInfo: serviceInfoHandler('workflows', deps.version, () => schemaVersion(deps.pool)),
    createWorkflow: async (request, { principal }) =>
      toWorkflow(
        await createWorkflow(deps, requirePrincipal(principal), {
          name: request.name,
          description: request.description,
          icon: request.icon,
          visibility: enumField(WORKFLOW_VISIBILITIES, request.visibility, 'visibility'),
          teamId: request.team_id,
          triggerType: request.trigger_type,
          ...jsonFields(request),
        }),
      ),
    listWorkflows: async (request, { principal }) => {
      const paging = checkPaging(request.page, request.page_size);
      const { rows, total } = await listWorkflows(deps, requirePrincipal(principal), {
        ...paging,
        search: request.search,
        teamId: request.team_id,
        status: enumField(WORKFLOW_STATUSES, request.status, 'status'),
      });
      return { items: rows.map(toWorkflow), total, page: paging.page, page_size: paging.pageSize };
    },
    getWorkflow: async (request, { principal }) =>
      toWorkflow(await getWorkflow(deps, requirePrincipal(principal), request.id)),
    updateWorkflow: async (request, { principal }) =>
      toWorkflow(
        await updateWorkflow(deps, requirePrincipal(principal), request.id, {
          name: request.name,
          description: request.description,
          icon: request.icon,
          visibility: enumField(WORKFLOW_VISIBILITIES, request.visibility, 'visibility'),
          triggerType: request.trigger_type,
          ...jsonFields(request),
        }),
      ),
    deleteWorkflow: (request, { principal }) => deleteWorkflow(deps, requirePrincipal(principal), request.id),
    publishWorkflow: async (request, { principal }) => {
      const mode = enumField(PRESENTATION_MODES, request.presentation_mode, 'presentation_mode');
      if (!mode)
        throw BusinessError.validation({
          presentation_mode: [`allowed values: ${PRESENTATION_MODES.names.join(', ')}`],
        });
      return toWorkflow(await publishWorkflow(deps, requirePrincipal(principal), request.id, mode));
    },
    listWorkflowSnapshots: async (request, { principal }) => {
      const paging = checkPaging(request.page, request.page_size);
      const { rows, total } = await listWorkflowSnapshots(
        deps,
        requirePrincipal(principal),
        request.id,
        paging,
      );
      return { items: rows.map(toSnapshot), total, page: paging.page, page_size: paging.pageSize };
    },
    getWorkflowSnapshot: async (request, { principal }) =>
      toSnapshot(await getWorkflowSnapshot(deps, requirePrincipal(principal), request.id, request.version)),
    createWorkflowSnapshot: async (request, { principal }) =>
      toSnapshot(
        await createWorkflowSnapshot(deps, requirePrincipal(principal), request.id, request.description),
      ),
    restoreWorkflowSnapshot: async (request, { principal }) =>
      toWorkflow(
        await restoreWorkflowSnapshot(
          deps,
          requirePrincipal(principal),
          request.id,
          request.version,
          request.description,
        ),
      ),
    getWorkflowNames: async (request) => ({ workflows: await getWorkflowNames(deps, request.ids) }),
  });
  return internalOnly(service, INTERNAL_CALLERS);
}
