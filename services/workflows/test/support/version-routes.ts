import { beforeEach, expect } from 'vitest';
import type { TestUser, WorkflowsHarness } from './harness.js';
import { useWorkflowsHarness } from './route-suite.js';
import { versionsClient } from './versions.js';

/** What the bad-input tests of the version routes address: one user's workflow with one draft. */
export async function oneDraft(harness: WorkflowsHarness) {
  const user = await harness.createUser();
  const client = versionsClient(harness.request, user);
  const wf = (await client.workflow()).id;
  const version = (await client.create(wf)).id;
  return { user, client, wf, version };
}

/** `expect422(method, path, json, field)`: the call is refused with 422 / 1001 naming `field`. */
export function fieldRefusal(context: () => { harness: WorkflowsHarness; user: TestUser }) {
  return async function expect422(method: string, path: string, json: unknown, field: string) {
    const { harness, user } = context();
    const res = await harness.request(method, path, { token: user.token, json });
    const label = `${method} ${path} ${JSON.stringify(json)?.slice(0, 120)}`;
    expect([label, res.status, res.body.code]).toEqual([label, 422, 1001]);
    expect([label, Object.keys(res.body.data.errors)]).toEqual([label, expect.arrayContaining([field])]);
  };
}

/** What a route file of the version routes reads (see useVersionRoutes). */
export interface VersionRoutes extends Awaited<ReturnType<typeof oneDraft>> {
  harness: WorkflowsHarness;
  /** A fresh user for each test, and her client. */
  alice: TestUser;
  a: ReturnType<typeof versionsClient>;
}

/**
 * One harness for a route file of the version routes, with one user's draft (oneDraft, made once)
 * and a fresh `alice` before each test; `ready` hands the state over after each change, the file
 * keeps what it needs in its own variables.
 */
export function useVersionRoutes(ready: (state: VersionRoutes) => void): void {
  const state = {} as VersionRoutes;
  useWorkflowsHarness(async (started) => {
    Object.assign(state, { harness: started }, await oneDraft(started));
    ready(state);
  });
  beforeEach(async () => {
    state.alice = await state.harness.createUser();
    state.a = versionsClient(state.harness.request, state.alice);
    ready(state);
  });
}
