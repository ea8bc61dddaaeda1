/**
 * The child process of `createProcessSandbox`: runs one request at a time in its own sandbox and
 * answers over IPC. It exists so that V8 failures isolated-vm cannot contain (a fatal OOM aborts
 * the whole process) kill this expendable child, never the caller.
 */
import { createSandbox } from './sandbox.js';
import type { RunCodeRequest } from './run-code.js';

const sandbox = createSandbox();

process.on('message', (message: { id: number; request: RunCodeRequest }) => {
  void sandbox.runCode(message.request).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
