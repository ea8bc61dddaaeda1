import {
  PRESENTATION_MODES,
  storedNameToProto,
  toJsonValue,
  WORKFLOW_STATUSES,
  WORKFLOW_VISIBILITIES,
  type workflowsV1,
} from '@platform/contracts';
import type { SnapshotRow } from '../data/snapshots-repository.js';
import type { WorkflowRow } from '../data/workflows-repository.js';

/** A stored JSON column (text) as the contract's JSON value. */
const jsonOf = (text: string) => toJsonValue(JSON.parse(text) as unknown);
const enumOf = storedNameToProto;

/** A row as the contract carries it: the definition as the stored text, empty strings for nulls. */
export function toWorkflow(row: WorkflowRow): workflowsV1.Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    icon: row.icon ?? '',
    visibility: enumOf(WORKFLOW_VISIBILITIES, row.visibility),
    team_id: row.team_id ?? '',
    owner_id: row.owner_id,
    definition_json: row.definition,
    variables: jsonOf(row.variables),
    trigger_type: row.trigger_type,
    trigger_config: jsonOf(row.trigger_config),
    version: row.version,
    status: enumOf(WORKFLOW_STATUSES, row.status),
    presentation_mode: enumOf(PRESENTATION_MODES, row.presentation_mode),
    published_at: row.published_at?.toISOString() ?? '',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    published_version: row.published_version ?? 0,
  };
}

export function toSnapshot(row: SnapshotRow): workflowsV1.WorkflowSnapshot {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    version: row.version,
    description: row.description,
    definition_json: row.definition,
    variables: jsonOf(row.variables),
    trigger_type: row.trigger_type,
    trigger_config: jsonOf(row.trigger_config),
    created_by: row.created_by ?? '',
    created_at: row.created_at.toISOString(),
  };
}
