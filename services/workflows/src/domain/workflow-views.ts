import type { workflowsV1 } from '@platform/contracts';
import type { SnapshotRow } from '../data/snapshots-repository.js';
import type { WorkflowRow } from '../data/workflows-repository.js';

/** A row as the contract carries it: JSON values as the stored text, empty strings for nulls. */
export function toWorkflow(row: WorkflowRow): workflowsV1.Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    icon: row.icon ?? '',
    visibility: row.visibility,
    team_id: row.team_id ?? '',
    owner_id: row.owner_id,
    definition_json: row.definition,
    variables_json: row.variables,
    trigger_type: row.trigger_type,
    trigger_config_json: row.trigger_config,
    version: row.version,
    status: row.status,
    presentation_mode: row.presentation_mode ?? '',
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
    variables_json: row.variables,
    trigger_type: row.trigger_type,
    trigger_config_json: row.trigger_config,
    created_by: row.created_by ?? '',
    created_at: row.created_at.toISOString(),
  };
}
