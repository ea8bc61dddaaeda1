import { expect } from 'vitest';
import { chainDefinition, type TestUser, type WorkflowsHarness } from './harness.js';

/**
 * One user's calls on /workflows and /workflows/{id} through the harness's gateway; `harness` is
 * read at call time, so a route file may build these before its harness has started.
 */
export function workflowCalls(harness: () => WorkflowsHarness) {
  const create = (user: TestUser, json: Record<string, unknown>) =>
    harness().request('POST', '/workflows', { token: user.token, json });
  const put = (user: TestUser, id: string, json: Record<string, unknown>) =>
    harness().request('PUT', `/workflows/${id}`, { token: user.token, json });
  const get = (user: TestUser, id: string) =>
    harness().request('GET', `/workflows/${id}`, { token: user.token });
  /** A workflow of `user` (a 2-node chain unless `extra` says otherwise), created or the test fails. */
  async function newWorkflow(user: TestUser, extra: Record<string, unknown> = {}) {
    const res = await create(user, { name: 'flow', definition: chainDefinition(), ...extra });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    return res.body.data as { id: string; version: number } & Record<string, unknown>;
  }
  return { create, put, get, newWorkflow };
}

/** A workflow of `user` with `definition`, published (presentation `simple`); its id. */
export async function publishedWorkflow(
  harness: WorkflowsHarness,
  user: TestUser,
  name: string,
  definition: Record<string, unknown>,
): Promise<string> {
  const created = await harness.request('POST', '/workflows', {
    token: user.token,
    json: { name, definition },
  });
  const id = String(created.body.data.id);
  const published = await harness.request('POST', `/workflows/${id}/publish`, {
    token: user.token,
    json: { presentation_mode: 'simple' },
  });
  expect(published.body.code).toBe(0);
  return id;
}
