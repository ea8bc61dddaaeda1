import { describe, expect, it } from 'vitest';
import {
  LogLevel,
  NodeStatus,
  RunMode,
  RunStatus,
  RunTriggerType,
} from '../src/gen/platform/workflows/v1/workflow_runs.js';
import { VersionStatus } from '../src/gen/platform/workflows/v1/workflow_versions.js';
import { PresentationMode, Visibility, WorkflowStatus } from '../src/gen/platform/workflows/v1/workflows.js';
import {
  CODE_LOG_LEVELS,
  NODE_STATUSES,
  PRESENTATION_MODES,
  RUN_MODES,
  RUN_STATUSES,
  RUN_TRIGGER_TYPES,
  storedNameToProto,
  VERSION_STATUSES,
  WORKFLOW_STATUSES,
  WORKFLOW_VISIBILITIES,
} from '../src/workflow-sets.js';
import { expectNamesEveryValue, type EnumTable } from './support/enum-coverage.js';

const tables: EnumTable[] = [
  ['Visibility', WORKFLOW_VISIBILITIES, Visibility],
  ['WorkflowStatus', WORKFLOW_STATUSES, WorkflowStatus],
  ['PresentationMode', PRESENTATION_MODES, PresentationMode],
  ['RunMode', RUN_MODES, RunMode],
  ['RunStatus', RUN_STATUSES, RunStatus],
  ['NodeStatus', NODE_STATUSES, NodeStatus],
  ['RunTriggerType', RUN_TRIGGER_TYPES, RunTriggerType],
  ['LogLevel', CODE_LOG_LEVELS, LogLevel],
  ['VersionStatus', VERSION_STATUSES, VersionStatus],
];

describe('the workflows closed sets', () => {
  it.each(tables)('%s: every member of the proto enum has a name, each once', (_, set, enumeration) =>
    expectNamesEveryValue(set, enumeration),
  );

  it('reads a stored name as its enum, null or an unknown name as unspecified', () => {
    expect(storedNameToProto(PRESENTATION_MODES, 'result_first')).toBe(
      PresentationMode.PRESENTATION_MODE_RESULT_FIRST,
    );
    expect(storedNameToProto(PRESENTATION_MODES, null)).toBe(0);
    expect(storedNameToProto(RUN_STATUSES, 'paused')).toBe(0);
  });

  it('names each member by its enum name without the prefix, in lower case, in proto order', () => {
    expect(RUN_TRIGGER_TYPES.names).toEqual(['user', 'api_key']);
    expect(PRESENTATION_MODES.names).toEqual(['simple', 'result_first']);
    expect(WORKFLOW_VISIBILITIES.names).toEqual(['private', 'team', 'public']);
    expect(RUN_STATUSES.names).toEqual(['queued', 'running', 'success', 'failed', 'timeout']);
    expect(RUN_MODES.toProto('debug')).toBe(RunMode.RUN_MODE_DEBUG);
  });
});
