import {
  LogLevel,
  NodeStatus,
  RunMode,
  RunStatus,
  RunTriggerType,
} from './gen/platform/workflows/v1/workflow_runs.js';
import { VersionStatus } from './gen/platform/workflows/v1/workflow_versions.js';
import { PresentationMode, Visibility, WorkflowStatus } from './gen/platform/workflows/v1/workflows.js';
import { closedSet, type ClosedSet } from './closed-set.js';

/**
 * The closed sets of the workflows API, one table each (names over HTTP and in the store, the
 * proto enum over gRPC): the gateway's schemas list `names`, the workflows service translates at
 * its gRPC edge. The proto files say what each set means.
 */
export const WORKFLOW_VISIBILITIES = closedSet([
  ['private', Visibility.VISIBILITY_PRIVATE],
  ['team', Visibility.VISIBILITY_TEAM],
  ['public', Visibility.VISIBILITY_PUBLIC],
] as const);
export type WorkflowVisibility = (typeof WORKFLOW_VISIBILITIES.names)[number];

export const WORKFLOW_STATUSES = closedSet([
  ['draft', WorkflowStatus.WORKFLOW_STATUS_DRAFT],
  ['published', WorkflowStatus.WORKFLOW_STATUS_PUBLISHED],
] as const);

export const PRESENTATION_MODES = closedSet([
  ['simple', PresentationMode.PRESENTATION_MODE_SIMPLE],
  ['result_first', PresentationMode.PRESENTATION_MODE_RESULT_FIRST],
] as const);
export type PresentationModeName = (typeof PRESENTATION_MODES.names)[number];

export const RUN_MODES = closedSet([
  ['production', RunMode.RUN_MODE_PRODUCTION],
  ['debug', RunMode.RUN_MODE_DEBUG],
] as const);
export type RunModeName = (typeof RUN_MODES.names)[number];

export const RUN_STATUSES = closedSet([
  ['queued', RunStatus.RUN_STATUS_QUEUED],
  ['running', RunStatus.RUN_STATUS_RUNNING],
  ['success', RunStatus.RUN_STATUS_SUCCESS],
  ['failed', RunStatus.RUN_STATUS_FAILED],
  ['timeout', RunStatus.RUN_STATUS_TIMEOUT],
] as const);
export type RunStatusName = (typeof RUN_STATUSES.names)[number];

export const NODE_STATUSES = closedSet([
  ['running', NodeStatus.NODE_STATUS_RUNNING],
  ['success', NodeStatus.NODE_STATUS_SUCCESS],
  ['failed', NodeStatus.NODE_STATUS_FAILED],
  ['skipped', NodeStatus.NODE_STATUS_SKIPPED],
  ['timeout', NodeStatus.NODE_STATUS_TIMEOUT],
] as const);
export type NodeStatusName = (typeof NODE_STATUSES.names)[number];

export const RUN_TRIGGER_TYPES = closedSet([
  ['user', RunTriggerType.RUN_TRIGGER_TYPE_USER],
  ['api_key', RunTriggerType.RUN_TRIGGER_TYPE_API_KEY],
] as const);

export const CODE_LOG_LEVELS = closedSet([
  ['log', LogLevel.LOG_LEVEL_LOG],
  ['info', LogLevel.LOG_LEVEL_INFO],
  ['warn', LogLevel.LOG_LEVEL_WARN],
  ['error', LogLevel.LOG_LEVEL_ERROR],
] as const);
export type CodeLogLevel = (typeof CODE_LOG_LEVELS.names)[number];

export const VERSION_STATUSES = closedSet([
  ['draft', VersionStatus.VERSION_STATUS_DRAFT],
  ['published', VersionStatus.VERSION_STATUS_PUBLISHED],
  ['archived', VersionStatus.VERSION_STATUS_ARCHIVED],
] as const);
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
