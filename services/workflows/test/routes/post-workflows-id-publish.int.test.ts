// POST /workflows/{id}/publish (gateway routes/workflows-routes.ts): publishing snapshots the current
// version and marks the workflow published; bad presentation modes, a burst, and the security
// cases. The snapshot routes: get-and-post-workflows-id-versions; another user: there too.
import { describe, expect, it } from 'vitest';
import type { WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useFreshUsers, useWorkflowsHarness, type FreshUsers } from '../support/route-suite.js';
import { snapshotCalls } from '../support/snapshot-calls.js';

let harness: WorkflowsHarness;
let { alice } = {} as FreshUsers;
let someWorkflow: string;

useWorkflowsHarness(async (started) => {
  harness = started;
  someWorkflow = await snapshotCalls(() => started).newWorkflow(await started.createUser());
});
useFreshUsers(
  () => harness,
  (users) => ({ alice } = users),
);

const { call, newWorkflow, snapshotRows } = snapshotCalls(() => harness);

describe('POST /workflows/{id}/publish', () => {
  it('snapshots the current version (skipped if one exists) and marks the workflow published', async () => {
    const id = await newWorkflow(alice);
    const published = await call(alice, 'POST', `/workflows/${id}/publish`, {
      presentation_mode: 'result_first',
    });
    expect(published.body.data).toMatchObject({
      status: 'published',
      presentation_mode: 'result_first',
      published_version: 1,
      version: 1,
    });
    expect(published.body.data.published_at).toEqual(expect.any(String));
    const again = await call(alice, 'POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' });
    expect(again.body.data).toMatchObject({ presentation_mode: 'simple', version: 1 });
    expect(await snapshotRows(id)).toEqual([1]);
    const list = await call(alice, 'GET', `/workflows?status=published`);
    expect(list.body.data.items.map((w: { id: string }) => w.id)).toEqual([id]);
  });

  it('refuses a presentation mode other than simple or result_first with 422 / 1001', async () => {
    const id = await newWorkflow(alice);
    for (const json of [{ presentation_mode: 'fancy' }, {}, { presentation_mode: 1 }]) {
      const res = await call(alice, 'POST', `/workflows/${id}/publish`, json);
      expect([res.status, res.body.code]).toEqual([422, 1001]);
    }
    expect((await call(alice, 'GET', `/workflows/${id}`)).body.data.status).toBe('draft');
  });

  it('concurrent publishes and snapshots (burst of 20) leave exactly one snapshot of the version', async () => {
    const id = await newWorkflow(alice);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? call(alice, 'POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' })
          : call(alice, 'POST', `/workflows/${id}/versions`, { description: `s${i}` }),
      ),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((_, i) => i % 2 === 0).every((r) => r.status === 200)).toBe(true);
    expect(await snapshotRows(id)).toEqual([1]);
  });
});

describeRouteSecurity('POST /workflows/{id}/publish', () => ({
  harness,
  routes: [['POST', `/workflows/${someWorkflow}/publish`, { presentation_mode: 'simple' }]],
}));
