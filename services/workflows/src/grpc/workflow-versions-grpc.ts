import { fromJsonValue, storedNameToProto, toJsonValue, VERSION_STATUSES } from '@platform/contracts';
import * as versionsV1 from '@platform/contracts/platform/workflows/v1/workflow_versions';
import { registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import type { StoredVersion, VersionMeta } from '../data/version-store.js';
import { createVersion, forkVersion } from '../domain/versions/create-version.js';
import {
  archiveVersion,
  publishVersion,
  rollbackVersion,
  type PublishedVersion,
} from '../domain/versions/publish-version.js';
import {
  checkHistoryPage,
  diffWorkflowVersions,
  getVersion,
  versionHistory,
  versionStats,
  type VersionDeps,
} from '../domain/versions/read-versions.js';
import { enumField } from './enum-fields.js';

export const VERSIONS_SERVICE_NAME = 'platform.workflows.v1.WorkflowVersionsService';

function toSummary(meta: VersionMeta): versionsV1.WorkflowVersionSummary {
  return {
    id: meta.id,
    workflow_id: meta.workflow_id,
    description: meta.description,
    status: storedNameToProto(VERSION_STATUSES, meta.status),
    created_by: meta.created_by,
    created_at: meta.created_at,
    updated_at: meta.updated_at,
    node_count: meta.node_count,
    edge_count: meta.edge_count,
    source_version_id: meta.source_version_id ?? '',
  };
}

/** A body the store keeps as JSON text, as the contract's JSON value. */
const storedJson = (text: string) => toJsonValue(JSON.parse(text) as unknown);

function toVersion(version: StoredVersion): versionsV1.WorkflowVersion {
  return {
    summary: toSummary(version),
    nodes: storedJson(version.body.nodes),
    edges: storedJson(version.body.edges),
    config: storedJson(version.body.config),
  };
}

function toPublished(result: PublishedVersion): versionsV1.PublishedWorkflowVersion {
  return {
    version: toVersion(result.version),
    workflow_version: result.workflowVersion,
    backup_version_id: result.backupVersionId ?? '',
  };
}

/** The `/workflow-versions` entry points: thin handlers that decode, call a use case, encode. */
export function workflowVersionsGrpc(deps: VersionDeps) {
  return registration(VERSIONS_SERVICE_NAME, versionsV1.WorkflowVersionsServiceService, {
    createWorkflowVersion: async (request, { principal }) => {
      const content = {
        // Absent is not "empty": the field is named as missing rather than taken as [].
        nodes: fromJsonValue(request.nodes),
        edges: fromJsonValue(request.edges),
        config: fromJsonValue(request.config) ?? {},
      };
      return toVersion(
        await createVersion(
          deps,
          requirePrincipal(principal),
          request.workflow_id,
          content,
          request.description,
        ),
      );
    },
    listWorkflowVersionHistory: async (request, { principal }) => {
      const status = enumField(VERSION_STATUSES, request.status, 'status');
      const page = checkHistoryPage(request.limit, request.offset, status);
      const { items, total } = await versionHistory(
        deps,
        requirePrincipal(principal),
        request.workflow_id,
        page,
      );
      return { items: items.map(toSummary), total, limit: page.limit, offset: page.offset };
    },
    getWorkflowVersion: async (request, { principal }) =>
      toVersion(await getVersion(deps, requirePrincipal(principal), request.workflow_id, request.version_id)),
    publishWorkflowVersion: async (request, { principal }) =>
      toPublished(
        await publishVersion(deps, requirePrincipal(principal), request.workflow_id, request.version_id),
      ),
    archiveWorkflowVersion: async (request, { principal }) =>
      toVersion(
        await archiveVersion(deps, requirePrincipal(principal), request.workflow_id, request.version_id),
      ),
    diffWorkflowVersions: async (request, { principal }) => {
      const diff = await diffWorkflowVersions(
        deps,
        requirePrincipal(principal),
        request.workflow_id,
        request.from_version,
        request.to_version,
      );
      return {
        from_version: request.from_version,
        to_version: request.to_version,
        added_nodes: toJsonValue(diff.added_nodes),
        removed_nodes: toJsonValue(diff.removed_nodes),
        modified_nodes: toJsonValue(diff.modified_nodes),
        added_edges: toJsonValue(diff.added_edges),
        removed_edges: toJsonValue(diff.removed_edges),
        config_changes: toJsonValue(diff.config_changes),
      };
    },
    rollbackWorkflowVersion: async (request, { principal }) =>
      toPublished(
        await rollbackVersion(
          deps,
          requirePrincipal(principal),
          request.workflow_id,
          request.version_id,
          request.create_backup ?? true,
        ),
      ),
    forkWorkflowVersion: async (request, { principal }) =>
      toVersion(
        await forkVersion(deps, requirePrincipal(principal), request.workflow_id, {
          versionId: request.version_id,
          newWorkflowId: request.new_workflow_id,
          newName: request.new_name,
        }),
      ),
    getWorkflowVersionStats: async (request, { principal }) => {
      const stats = await versionStats(deps, requirePrincipal(principal), request.workflow_id);
      return {
        ...stats,
        first_version_at: stats.first_version_at ?? '',
        latest_version_at: stats.latest_version_at ?? '',
      };
    },
  });
}
