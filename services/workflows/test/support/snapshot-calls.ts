import { expect } from 'vitest';
import { chainDefinition, type TestUser, type WorkflowsHarness } from './harness.js';

/**
 * The calls the snapshot and publish route tests share; `harness` is read at call time, so a route
 * file may build these before its harness has started.
 */
export function snapshotCalls(harness: () => WorkflowsHarness) {
  const call = (user: TestUser, method: string, path: string, json?: unknown) =>
    harness().request(method, path, { token: user.token, json });
  /** A workflow whose definition, variables and trigger a restore must bring back. */
  async function newWorkflow(user: TestUser) {
    const res = await call(user, 'POST', '/workflows', {
      name: 'flow',
      definition: chainDefinition(2, 2, 'v1'),
      variables: { a: 1 },
      trigger_type: 'manual',
      trigger_config: {},
    });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  }
  /** The versions of the workflow's persisted snapshots, ascending, as Postgres holds them. */
  const snapshotRows = async (id: string) =>
    (
      await harness().workflows.dependencies.pool.query<{ version: number }>(
        'SELECT version FROM workflow_snapshots WHERE workflow_id = $1 ORDER BY version',
        [id],
      )
    ).rows.map((r) => r.version);
  return { call, newWorkflow, snapshotRows };
}
