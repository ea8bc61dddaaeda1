import { fromJsonValue, VERSION_STATUSES, type jsonValueV1 } from '@platform/contracts';
import type * as versionsV1 from '@platform/contracts/platform/workflows/v1/workflow_versions';
import { z } from 'zod';

/** The service's JSON values (stored exactly as the client sent them) back to JSON. */
const json = (value: jsonValueV1.JsonValue | undefined): unknown => fromJsonValue(value);
const orNull = (text: string) => (text === '' ? null : text);

export const versionSummarySchema = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  description: z.string(),
  status: z.enum(VERSION_STATUSES.names),
  created_by: z.string(),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
  node_count: z.number().int(),
  edge_count: z.number().int(),
  source_version_id: z.uuid().nullable().describe('the version it was copied from (rollback, fork)'),
});

export const versionSchema = versionSummarySchema.extend({
  nodes: z.array(z.record(z.string(), z.unknown())),
  edges: z.array(z.record(z.string(), z.unknown())),
  config: z.record(z.string(), z.unknown()).describe('the definition keys besides nodes and edges'),
});

export const publishedVersionSchema = versionSchema.extend({
  workflow_version: z.number().int().describe("the workflow's integer version after the write-back"),
  backup_version_id: z.uuid().nullable().describe('rollback with create_backup: the archived backup'),
});

const fieldChange = z.object({ field: z.string(), from: z.unknown().optional(), to: z.unknown().optional() });

export const versionDiffSchema = z.object({
  from_version: z.uuid(),
  to_version: z.uuid(),
  added_nodes: z.array(z.record(z.string(), z.unknown())),
  removed_nodes: z.array(z.record(z.string(), z.unknown())),
  modified_nodes: z.array(z.object({ id: z.string(), changes: z.array(fieldChange) })),
  added_edges: z.array(z.record(z.string(), z.unknown())),
  removed_edges: z.array(z.record(z.string(), z.unknown())),
  config_changes: z.array(fieldChange),
});

export const versionStatsSchema = z.object({
  total: z.number().int(),
  published: z.number().int(),
  draft: z.number().int(),
  archived: z.number().int(),
  first_version_at: z.string().nullable(),
  latest_version_at: z.string().nullable(),
});

export function toVersionSummary(summary: versionsV1.WorkflowVersionSummary | undefined) {
  const s = summary!;
  return {
    id: s.id,
    workflow_id: s.workflow_id,
    description: s.description,
    status: VERSION_STATUSES.fromProto(s.status),
    created_by: s.created_by,
    created_at: s.created_at,
    updated_at: s.updated_at,
    node_count: s.node_count,
    edge_count: s.edge_count,
    source_version_id: orNull(s.source_version_id),
  };
}

export function toVersion(version: versionsV1.WorkflowVersion | undefined) {
  const v = version!;
  return {
    ...toVersionSummary(v.summary),
    nodes: json(v.nodes),
    edges: json(v.edges),
    config: json(v.config),
  };
}

export function toPublishedVersion(published: versionsV1.PublishedWorkflowVersion) {
  return {
    ...toVersion(published.version),
    workflow_version: published.workflow_version,
    backup_version_id: orNull(published.backup_version_id),
  };
}

export function toVersionDiff(diff: versionsV1.WorkflowVersionDiff) {
  return {
    from_version: diff.from_version,
    to_version: diff.to_version,
    added_nodes: json(diff.added_nodes),
    removed_nodes: json(diff.removed_nodes),
    modified_nodes: json(diff.modified_nodes),
    added_edges: json(diff.added_edges),
    removed_edges: json(diff.removed_edges),
    config_changes: json(diff.config_changes),
  };
}

export function toVersionStats(stats: versionsV1.WorkflowVersionStats) {
  return {
    ...stats,
    first_version_at: orNull(stats.first_version_at),
    latest_version_at: orNull(stats.latest_version_at),
  };
}
