import { afterAll, beforeAll } from 'vitest';
import { startWorkflowsHarness, type WorkflowsHarness } from './harness.js';

/**
 * One workflows harness for a route file: started before the file's tests (`ready` gets it, and may
 * create what every test of the file reads) and stopped after them.
 */
export function useWorkflowsHarness(
  ready: (harness: WorkflowsHarness) => void | Promise<void>,
  env: Record<string, string> = {},
  options: Parameters<typeof startWorkflowsHarness>[1] = {},
): void {
  let harness: WorkflowsHarness | undefined;
  beforeAll(async () => {
    harness = await startWorkflowsHarness(env, options);
    await ready(harness);
  }, 120_000);
  afterAll(async () => {
    await harness?.stop();
  });
}
