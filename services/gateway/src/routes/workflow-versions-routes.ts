import { toJsonValue, VERSION_STATUSES, WORKFLOW_FIELD_RULES } from '@platform/contracts';
import type * as versionsV1 from '@platform/contracts/platform/workflows/v1/workflow_versions';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';
import { documentedText, queryInt } from './validation.js';
import {
  EDGES_NEED_NODES,
  versionConfigBody,
  versionEdgesBody,
  versionNodesBody,
} from './workflow-definition-schema.js';
import {
  publishedVersionSchema,
  toPublishedVersion,
  toVersion,
  toVersionDiff,
  toVersionStats,
  toVersionSummary,
  versionDiffSchema,
  versionSchema,
  versionStatsSchema,
  versionSummarySchema,
} from './workflow-versions-presenters.js';

const INT32_MAX = 2_147_483_647;

/**
 * The ephemeral version store (spec "Workflow versions, in-memory store"; docs/workflows.md):
 * versions in Redis, addressed by UUID, apart from the persisted snapshots under /workflows.
 * Shapes here; the definition rules (node and edge fields, unique ids, edges between existing
 * nodes, size) are the workflows service's, answered as 422 / 1001 naming the field (`nodes.3.id`),
 * and stated in the document (workflow-definition-schema.ts).
 */
const description = documentedText(z.string().max(WORKFLOW_FIELD_RULES.descriptionMaxLength));

const workflowParams = z.object({ workflow_id: z.uuid() });
type WorkflowParams = z.infer<typeof workflowParams>;
const versionParams = z.object({ workflow_id: z.uuid(), version_id: z.uuid() });
type VersionParams = z.infer<typeof versionParams>;

const createBody = z
  .object({
    workflow_id: z.uuid(),
    nodes: versionNodesBody,
    edges: versionEdgesBody,
    config: versionConfigBody.default({}),
    description: description.default(''),
  })
  .strict()
  .meta(EDGES_NEED_NODES);
type CreateBody = z.infer<typeof createBody>;
const historyQuery = z.object({
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, INT32_MAX, 0),
  status: z.enum(VERSION_STATUSES.names).optional(),
});
type HistoryQuery = z.infer<typeof historyQuery>;
const diffQuery = z.object({ from_version: z.uuid(), to_version: z.uuid() });
type DiffQuery = z.infer<typeof diffQuery>;
const rollbackBody = z.object({ version_id: z.uuid(), create_backup: z.boolean().default(true) }).strict();
type RollbackBody = z.infer<typeof rollbackBody>;
const forkBody = z
  .object({ version_id: z.uuid(), new_workflow_id: z.uuid(), new_name: description.optional() })
  .strict();
type ForkBody = z.infer<typeof forkBody>;

const base = { tags: ['workflow-versions'], auth: 'user' as const };
const notFound = ErrorCode.NOT_FOUND;
/** Another publish, archive or rollback of the workflow held its version lock too long. */
const busy = { code: ErrorCode.BAD_REQUEST, status: 409 };
/** The creator's byte budget of versions is full (workflow_versions_budget_exceeded). */
const budgetFull = ErrorCode.RATE_LIMITED;
type Version = versionsV1.WorkflowVersion;
type Published = versionsV1.PublishedWorkflowVersion;

function versionActionRoute(action: 'publish' | 'archive') {
  const shared = {
    ...base,
    method: 'post' as const,
    path: `/workflow-versions/:workflow_id/version/:version_id/${action}`,
    permission: 'workflow:update',
    params: versionParams,
    errors: [notFound, busy],
  };
  if (action === 'archive') {
    return defineRoute<ServiceClients, VersionParams, undefined, undefined, Version>({
      ...shared,
      summary: 'Archive a version; other versions and the workflow are untouched',
      response: versionSchema,
      invoke: ({ params }, { clients, principal }) =>
        clients.workflowVersions.call('archiveWorkflowVersion', params, { principal }),
      present: toVersion,
    });
  }
  return defineRoute<ServiceClients, VersionParams, undefined, undefined, Published>({
    ...shared,
    summary:
      "Publish a version: written back to the workflow's definition; the one published before is archived",
    response: publishedVersionSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflowVersions.call('publishWorkflowVersion', params, { principal }),
    present: toPublishedVersion,
  });
}

export const workflowVersionsRoutes = [
  defineRoute<ServiceClients, undefined, undefined, CreateBody, Version>({
    ...base,
    method: 'post',
    path: '/workflow-versions',
    summary: 'Create a draft version; the workflow is not modified',
    permission: 'workflow:update',
    body: createBody,
    errors: [notFound, budgetFull],
    response: versionSchema,
    invoke: ({ body }, { clients, principal }) =>
      clients.workflowVersions.call(
        'createWorkflowVersion',
        {
          workflow_id: body.workflow_id,
          nodes: toJsonValue(body.nodes),
          edges: toJsonValue(body.edges),
          config: toJsonValue(body.config),
          description: body.description,
        },
        { principal },
      ),
    present: toVersion,
  }),
  defineRoute<
    ServiceClients,
    WorkflowParams,
    HistoryQuery,
    undefined,
    versionsV1.ListWorkflowVersionHistoryResponse
  >({
    ...base,
    method: 'get',
    path: '/workflow-versions/:workflow_id/history',
    summary: 'Versions of a workflow, newest first (without their nodes, edges and config)',
    permission: 'workflow:read',
    params: workflowParams,
    query: historyQuery,
    response: z.object({
      items: z.array(versionSummarySchema),
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
      page: z.number().int(),
      page_size: z.number().int(),
    }),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.workflowVersions.call(
        'listWorkflowVersionHistory',
        {
          workflow_id: params.workflow_id,
          limit: query.limit,
          offset: query.offset,
          status: query.status ? VERSION_STATUSES.toProto(query.status) : undefined,
        },
        { principal },
      ),
    present: (list) => ({
      items: list.items.map(toVersionSummary),
      total: list.total,
      limit: list.limit,
      offset: list.offset,
      // The paged-list shape every list shares; `page` is the one `offset` falls in.
      page: Math.floor(list.offset / list.limit) + 1,
      page_size: list.limit,
    }),
  }),
  defineRoute<ServiceClients, VersionParams, undefined, undefined, Version>({
    ...base,
    method: 'get',
    path: '/workflow-versions/:workflow_id/version/:version_id',
    summary: 'One version with its nodes, edges and config',
    permission: 'workflow:read',
    params: versionParams,
    response: versionSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflowVersions.call('getWorkflowVersion', params, { principal }),
    present: toVersion,
  }),
  versionActionRoute('publish'),
  versionActionRoute('archive'),
  defineRoute<ServiceClients, WorkflowParams, DiffQuery, undefined, versionsV1.WorkflowVersionDiff>({
    ...base,
    method: 'get',
    path: '/workflow-versions/:workflow_id/diff',
    summary:
      'Nodes added, removed and modified (with the changed fields), edges added and removed, config changes',
    permission: 'workflow:read',
    params: workflowParams,
    query: diffQuery,
    response: versionDiffSchema,
    invoke: ({ params, query }, { clients, principal }) =>
      clients.workflowVersions.call(
        'diffWorkflowVersions',
        { workflow_id: params.workflow_id, ...query },
        { principal },
      ),
    present: toVersionDiff,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, RollbackBody, Published>({
    ...base,
    method: 'post',
    path: '/workflow-versions/:workflow_id/rollback',
    summary: 'Publish a copy of an earlier version; the current published one is archived as the backup',
    permission: 'workflow:update',
    params: workflowParams,
    body: rollbackBody,
    errors: [notFound, busy, budgetFull],
    response: publishedVersionSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflowVersions.call(
        'rollbackWorkflowVersion',
        { workflow_id: params.workflow_id, version_id: body.version_id, create_backup: body.create_backup },
        { principal },
      ),
    present: toPublishedVersion,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, ForkBody, Version>({
    ...base,
    method: 'post',
    path: '/workflow-versions/:workflow_id/fork',
    summary: 'Copy a version into another workflow (which the caller may change) as a draft',
    permission: 'workflow:update',
    params: workflowParams,
    body: forkBody,
    errors: [notFound, budgetFull],
    response: versionSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflowVersions.call(
        'forkWorkflowVersion',
        { workflow_id: params.workflow_id, ...body },
        { principal },
      ),
    present: toVersion,
  }),
  defineRoute<ServiceClients, WorkflowParams, undefined, undefined, versionsV1.WorkflowVersionStats>({
    ...base,
    method: 'get',
    path: '/workflow-versions/:workflow_id/stats',
    summary: 'Counts by status and the first and latest version times',
    permission: 'workflow:read',
    params: workflowParams,
    response: versionStatsSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflowVersions.call('getWorkflowVersionStats', params, { principal }),
    present: toVersionStats,
  }),
];
