export * from './limits.js';
export * from './result.js';
export { checkCode, checkCodeSync, SUPPORTED_LANGUAGES, type CodeProblem } from './check-code.js';
export { USER_SCRIPT_NAME, type RunCodeRequest } from './run-code.js';
export { createSandbox, runCode, DEFAULT_ISOLATE_REUSE, type Sandbox } from './sandbox.js';
export type { IsolateReuse } from './isolate-source.js';
export { nodeSnapshotDisabled } from './host-flags.js';
export { createProcessSandbox } from './process-sandbox.js';
