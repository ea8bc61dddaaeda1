import type { ClosedSet } from './closed-set.js';
import { enumSet } from './enum-set.js';
import {
  LogLevel,
  NodeStatus,
  RunMode,
  RunStatus,
  RunTriggerType,
} from './gen/platform/workflows/v1/workflow_runs.js';
import { VersionStatus } from './gen/platform/workflows/v1/workflow_versions.js';
import { PresentationMode, Visibility, WorkflowStatus } from './gen/platform/workflows/v1/workflows.js';

/**
 * The closed sets of the workflows API (names over HTTP and in the store, the proto enum over
 * gRPC), each read from its enum in the workflows protos, which say what each set means: the
 * gateway's schemas list `names`, the workflows service translates at its gRPC edge.
 */
export const WORKFLOW_VISIBILITIES = enumSet(Visibility, 'VISIBILITY_');
export type WorkflowVisibility = (typeof WORKFLOW_VISIBILITIES.names)[number];
export const WORKFLOW_STATUSES = enumSet(WorkflowStatus, 'WORKFLOW_STATUS_');
export const PRESENTATION_MODES = enumSet(PresentationMode, 'PRESENTATION_MODE_');
export type PresentationModeName = (typeof PRESENTATION_MODES.names)[number];

export const RUN_MODES = enumSet(RunMode, 'RUN_MODE_');
export type RunModeName = (typeof RUN_MODES.names)[number];
export const RUN_STATUSES = enumSet(RunStatus, 'RUN_STATUS_');
export type RunStatusName = (typeof RUN_STATUSES.names)[number];
export const NODE_STATUSES = enumSet(NodeStatus, 'NODE_STATUS_');
export type NodeStatusName = (typeof NODE_STATUSES.names)[number];
export const RUN_TRIGGER_TYPES = enumSet(RunTriggerType, 'RUN_TRIGGER_TYPE_');
/** The `console` method a code node's log line came from. */
export const CODE_LOG_LEVELS = enumSet(LogLevel, 'LOG_LEVEL_');

export const VERSION_STATUSES = enumSet(VersionStatus, 'VERSION_STATUS_');
export type VersionStatusName = (typeof VERSION_STATUSES.names)[number];

/**
 * A name read from a store as its proto enum: null (not set yet, e.g. a draft's presentation
 * mode) is unspecified; so is a name outside the set, which the store's constraints never let in.
 */
export function storedNameToProto<Name extends string>(
  set: ClosedSet<Name, number>,
  name: string | null,
): number {
  return set.has(name) ? set.toProto(name) : 0;
}
