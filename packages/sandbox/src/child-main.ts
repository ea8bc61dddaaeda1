/**
 * The child process of `createProcessSandbox`: runs one request at a time in its own sandbox and
 * answers over IPC. It exists so that V8 failures isolated-vm cannot contain (a fatal OOM aborts
 * the whole process) kill this expendable child, never the caller.
 */
import { createSandbox } from './sandbox.js';
import type { RunCodeRequest } from './run-code.js';

const sandbox = createSandbox();

// The parent is gone (killed): stop at once, even mid-run (the isolate runs off this thread), so no
// orphan keeps burning a core on user code nobody waits for.
process.on('disconnect', () => process.exit(0));

process.on('message', (message: { id: number; request: RunCodeRequest }) => {
  void sandbox.runCode(message.request).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
