import {
  fromJsonValue,
  PRESENTATION_MODES,
  WORKFLOW_STATUSES,
  WORKFLOW_VISIBILITIES,
  type jsonValueV1,
  type workflowsV1,
} from '@platform/contracts';
import { z } from 'zod';

/**
 * HTTP shapes of workflows and persisted snapshots. The definition arrives as the stored text and
 * is sent as JSON, like the other JSON values; enums by name; empty strings from proto become
 * null. Lists leave out the large JSON values (definition, variables, trigger config): reading one
 * workflow or snapshot gives them.
 */
const orNull = (value: string) => value || null;
const json = (text: string): unknown => (text ? (JSON.parse(text) as unknown) : null);
const jsonValue = (value: jsonValueV1.JsonValue | undefined): unknown => fromJsonValue(value) ?? null;

const summaryFields = {
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  icon: z.string().nullable(),
  visibility: z.enum(WORKFLOW_VISIBILITIES.names),
  team_id: z.uuid().nullable(),
  owner_id: z.uuid(),
  trigger_type: z.string(),
  version: z.number().int().describe('grows by 1 only when a PUT changes the definition'),
  status: z.enum(WORKFLOW_STATUSES.names),
  presentation_mode: z.enum(PRESENTATION_MODES.names).nullable(),
  published_version: z.number().int().nullable().describe('the snapshot version production runs read'),
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};
export const workflowSummarySchema = z.object(summaryFields);
export const workflowSchema = z.object({
  ...summaryFields,
  definition: z.record(z.string(), z.unknown()).describe('stored exactly as given (docs/workflows.md)'),
  variables: z.unknown(),
  trigger_config: z.record(z.string(), z.unknown()),
});

export function toWorkflowSummary(workflow: workflowsV1.Workflow) {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    icon: orNull(workflow.icon),
    visibility: WORKFLOW_VISIBILITIES.fromProto(workflow.visibility),
    team_id: orNull(workflow.team_id),
    owner_id: workflow.owner_id,
    trigger_type: workflow.trigger_type,
    version: workflow.version,
    status: WORKFLOW_STATUSES.fromProto(workflow.status),
    presentation_mode: PRESENTATION_MODES.fromProto(workflow.presentation_mode) ?? null,
    published_version: workflow.published_version || null,
    published_at: orNull(workflow.published_at),
    created_at: workflow.created_at,
    updated_at: workflow.updated_at,
  };
}

export function toWorkflow(workflow: workflowsV1.Workflow) {
  return {
    ...toWorkflowSummary(workflow),
    definition: json(workflow.definition_json),
    variables: jsonValue(workflow.variables),
    trigger_config: jsonValue(workflow.trigger_config),
  };
}

const snapshotSummaryFields = {
  id: z.uuid(),
  workflow_id: z.uuid(),
  version: z.number().int(),
  description: z.string(),
  trigger_type: z.string(),
  created_by: z.uuid().nullable(),
  created_at: z.string(),
};
export const snapshotSummarySchema = z.object(snapshotSummaryFields);
export const snapshotSchema = z.object({
  ...snapshotSummaryFields,
  definition: z.record(z.string(), z.unknown()),
  variables: z.unknown(),
  trigger_config: z.record(z.string(), z.unknown()),
});

export function toSnapshotSummary(snapshot: workflowsV1.WorkflowSnapshot) {
  return {
    id: snapshot.id,
    workflow_id: snapshot.workflow_id,
    version: snapshot.version,
    description: snapshot.description,
    trigger_type: snapshot.trigger_type,
    created_by: orNull(snapshot.created_by),
    created_at: snapshot.created_at,
  };
}

export function toSnapshot(snapshot: workflowsV1.WorkflowSnapshot) {
  return {
    ...toSnapshotSummary(snapshot),
    definition: json(snapshot.definition_json),
    variables: jsonValue(snapshot.variables),
    trigger_config: jsonValue(snapshot.trigger_config),
  };
}

export const pagedOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
