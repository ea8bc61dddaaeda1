import {
  PRESENTATION_MODES,
  toOptionalJsonValue,
  WORKFLOW_FIELD_RULES as RULES,
  WORKFLOW_STATUSES,
  WORKFLOW_VISIBILITIES,
  type workflowsV1,
} from '@platform/contracts';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';
import { documentedText, nonBlankText, pagingQuery } from './validation.js';
import { definitionBody } from './workflow-definition-schema.js';
import {
  pagedOf,
  snapshotSchema,
  snapshotSummarySchema,
  toSnapshot,
  toSnapshotSummary,
  toWorkflow,
  toWorkflowSummary,
  workflowSchema,
  workflowSummarySchema,
} from './workflows-presenters.js';

/**
 * Workflows and their persisted version snapshots (spec "Workflow versions, persisted store";
 * ARCHITECTURE "Workflows"). Global permissions are checked here; ownership (owner, team
 * OWNER/ADMIN, superuser) in the workflows service, where no access is 404 like no workflow.
 * The service checks the definition format (422 / 1001 naming the field; docs/workflows.md); the
 * document states it (workflow-definition-schema.ts). Lengths and the trigger type's form come from
 * the rules the service enforces (WORKFLOW_FIELD_RULES).
 */
const base = { tags: ['workflows'], auth: 'user' as const };
const INT32_MAX = 2_147_483_647;

const jsonObject = z.record(documentedText(z.string()), z.unknown());
const variables = z.union([jsonObject, z.array(z.unknown())]);
const editable = {
  name: nonBlankText(RULES.nameMaxLength),
  description: documentedText(z.string().max(RULES.descriptionMaxLength)),
  icon: documentedText(z.string().max(RULES.iconMaxLength)).nullable(),
  visibility: z.enum(WORKFLOW_VISIBILITIES.names),
  definition: definitionBody,
  variables,
  // The form is the service's check (its message); the document states it.
  trigger_type: documentedText(
    z.string().min(1).max(RULES.triggerTypeMaxLength),
    RULES.triggerTypePattern.source,
  ),
  trigger_config: jsonObject,
};
const createBody = z
  .object({
    ...editable,
    description: editable.description.optional(),
    icon: editable.icon.optional(),
    visibility: editable.visibility.optional(),
    team_id: z.uuid().nullable().optional(),
    variables: editable.variables.optional(),
    trigger_type: editable.trigger_type.optional(),
    trigger_config: editable.trigger_config.optional(),
  })
  .strict();
type CreateBody = z.infer<typeof createBody>;
const updateBody = z.object(editable).partial().strict();
type UpdateBody = z.infer<typeof updateBody>;

const workflowParams = z.object({ id: z.uuid() });
type WorkflowParams = z.infer<typeof workflowParams>;
const versionParams = z.object({
  id: z.uuid(),
  version: z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value),
    z.number().int().min(1).max(INT32_MAX),
  ),
});
type VersionParams = z.infer<typeof versionParams>;
const listQuery = z.object({
  ...pagingQuery,
  search: documentedText(z.string().max(200)).optional(),
  team_id: z.uuid().optional(),
  status: z.enum(WORKFLOW_STATUSES.names).optional(),
});
type ListQuery = z.infer<typeof listQuery>;
const snapshotQuery = z.object(pagingQuery);
type SnapshotQuery = z.infer<typeof snapshotQuery>;
const snapshotBody = z.object({ description: editable.description.default('') }).strict();
type SnapshotBody = z.infer<typeof snapshotBody>;
const restoreBody = z.object({ description: editable.description.optional() }).strict();
type RestoreBody = z.infer<typeof restoreBody>;
const publishBody = z.object({ presentation_mode: z.enum(PRESENTATION_MODES.names) }).strict();
type PublishBody = z.infer<typeof publishBody>;

const text = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
const visibilityOf = (name: (typeof WORKFLOW_VISIBILITIES.names)[number] | undefined) =>
  name ? WORKFLOW_VISIBILITIES.toProto(name) : undefined;
const notFound = [ErrorCode.NOT_FOUND];
const invalid = { code: ErrorCode.VALIDATION_ERROR, status: 422 };
type Workflow = workflowsV1.Workflow;
type Snapshot = workflowsV1.WorkflowSnapshot;

export const workflowsRoutes = [
  defineRoute<ServiceClients, undefined, undefined, CreateBody, Workflow>({
    ...base,
    method: 'post',
    path: '/workflows',
    summary: 'Create a workflow (version 1, draft), owned by the caller, optionally in one of their teams',
    permission: 'workflow:create',
    errors: [invalid, ErrorCode.TEAM_NOT_FOUND],
    body: createBody,
    response: workflowSchema,
    invoke: ({ body }, { clients, principal }) =>
      clients.workflows.call(
        'createWorkflow',
        {
          name: body.name,
          description: body.description,
          icon: body.icon ?? undefined,
          visibility: visibilityOf(body.visibility),
          team_id: body.team_id ?? undefined,
          definition_json: JSON.stringify(body.definition),
          variables: toOptionalJsonValue(body.variables),
          trigger_type: body.trigger_type,
          trigger_config: toOptionalJsonValue(body.trigger_config),
        },
        { principal },
      ),
    present: toWorkflow,
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, workflowsV1.ListWorkflowsResponse>({
    ...base,
    method: 'get',
    path: '/workflows',
    summary: 'Workflows the caller may read, most recently updated first (no definitions; GET one for it)',
    permission: 'workflow:read',
    query: listQuery,
    response: pagedOf(workflowSummarySchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.workflows.call(
        'listWorkflows',
        {
          page: query.page,
          page_size: query.page_size,
          search: query.search,
          team_id: query.team_id,
          status: query.status ? WORKFLOW_STATUSES.toProto(query.status) : undefined,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toWorkflowSummary) }),
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, undefined, Workflow>({
    ...base,
    method: 'get',
    path: '/workflows/:id',
    summary: 'One workflow with its definition, exactly as stored',
    permission: 'workflow:read',
    errors: notFound,
    params: workflowParams,
    response: workflowSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflows.call('getWorkflow', { id: params.id }, { principal }),
    present: toWorkflow,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, UpdateBody, Workflow>({
    ...base,
    method: 'put',
    path: '/workflows/:id',
    summary: 'Partial update; `version` grows by 1 only when the definition changes',
    permission: 'workflow:update',
    errors: [...notFound, invalid],
    params: workflowParams,
    body: updateBody,
    response: workflowSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflows.call(
        'updateWorkflow',
        {
          id: params.id,
          name: body.name,
          description: body.description,
          icon: body.icon === undefined ? undefined : (body.icon ?? ''),
          visibility: visibilityOf(body.visibility),
          definition_json: text(body.definition),
          variables: toOptionalJsonValue(body.variables),
          trigger_type: body.trigger_type,
          trigger_config: toOptionalJsonValue(body.trigger_config),
        },
        { principal },
      ),
    present: toWorkflow,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, undefined, workflowsV1.DeletedWorkflow>({
    ...base,
    method: 'delete',
    path: '/workflows/:id',
    summary: 'Delete a workflow with its snapshots and ephemeral versions (API keys stay bound to it)',
    permission: 'workflow:delete',
    errors: notFound,
    params: workflowParams,
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, { clients, principal }) =>
      clients.workflows.call('deleteWorkflow', { id: params.id }, { principal }),
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, PublishBody, Workflow>({
    ...base,
    method: 'post',
    path: '/workflows/:id/publish',
    summary: 'Publish: snapshot of the current version (skipped if one exists), status `published`',
    permission: 'workflow:update',
    errors: [...notFound, invalid],
    params: workflowParams,
    body: publishBody,
    response: workflowSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflows.call(
        'publishWorkflow',
        { id: params.id, presentation_mode: PRESENTATION_MODES.toProto(body.presentation_mode) },
        { principal },
      ),
    present: toWorkflow,
  }),
  defineRoute<
    ServiceClients,
    WorkflowParams,
    SnapshotQuery,
    undefined,
    workflowsV1.ListWorkflowSnapshotsResponse
  >({
    ...base,
    method: 'get',
    path: '/workflows/:id/versions',
    summary: 'Persisted snapshots, version descending (no definitions; read one for it)',
    permission: 'workflow:read',
    errors: notFound,
    params: workflowParams,
    query: snapshotQuery,
    response: pagedOf(snapshotSummarySchema),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.workflows.call(
        'listWorkflowSnapshots',
        { id: params.id, page: query.page, page_size: query.page_size },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toSnapshotSummary) }),
  }),
  defineRoute<ServiceClients, VersionParams, undefined, undefined, Snapshot>({
    ...base,
    method: 'get',
    path: '/workflows/:id/versions/:version',
    summary: 'One persisted snapshot by its integer version',
    permission: 'workflow:read',
    errors: notFound,
    params: versionParams,
    response: snapshotSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflows.call(
        'getWorkflowSnapshot',
        { id: params.id, version: params.version },
        { principal },
      ),
    present: toSnapshot,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, SnapshotBody, Snapshot>({
    ...base,
    method: 'post',
    path: '/workflows/:id/versions',
    summary: 'Snapshot the current version now; a second snapshot of one version is 409 / 1002',
    permission: 'workflow:update',
    errors: [...notFound, invalid, { code: ErrorCode.BAD_REQUEST, status: 409 }],
    params: workflowParams,
    body: snapshotBody,
    response: snapshotSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflows.call(
        'createWorkflowSnapshot',
        { id: params.id, description: body.description },
        { principal },
      ),
    present: toSnapshot,
  }),
  defineRoute<ServiceClients, VersionParams, undefined, RestoreBody, Workflow>({
    ...base,
    method: 'post',
    path: '/workflows/:id/versions/:version/restore',
    summary:
      'Restore a snapshot: current state snapshotted, target state written at version + 1 and snapshotted',
    permission: 'workflow:update',
    errors: [...notFound, invalid],
    params: versionParams,
    body: restoreBody,
    response: workflowSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflows.call(
        'restoreWorkflowSnapshot',
        { id: params.id, version: params.version, description: body.description },
        { principal },
      ),
    present: toWorkflow,
  }),
];
