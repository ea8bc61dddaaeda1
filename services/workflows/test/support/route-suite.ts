import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from './harness.js';

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

/** The callers of a route file's tests: two users, fresh for each test (none reads what another left). */
export interface FreshUsers {
  alice: TestUser;
  bob: TestUser;
}

/** Fresh `alice` and `bob` before each test; `ready` hands them over. */
export function useFreshUsers(harness: () => WorkflowsHarness, ready: (users: FreshUsers) => void): void {
  beforeEach(async () => {
    const [alice, bob] = await Promise.all([harness().createUser(), harness().createUser()]);
    ready({ alice, bob });
  });
}
