// GET and POST /workflows/{id}/versions, GET /workflows/{id}/versions/{version} and POST
// /workflows/{id}/versions/{version}/restore (gateway routes/workflows-routes.ts): the persisted
// snapshots, taken, listed, read and restored; errors, bad input, bursts and the security cases.
// POST /workflows/{id}/publish (which snapshots too): post-workflows-id-publish.
import { describe, expect, it } from 'vitest';
import { chainDefinition, type WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useFreshUsers, useWorkflowsHarness, type FreshUsers } from '../support/route-suite.js';
import { snapshotCalls } from '../support/snapshot-calls.js';

let harness: WorkflowsHarness;
let { alice, bob } = {} as FreshUsers;
let someWorkflow: string;

useWorkflowsHarness(async (started) => {
  harness = started;
  const owner = await started.createUser();
  someWorkflow = await snapshotCalls(() => started).newWorkflow(owner);
  const first = await started.request('POST', `/workflows/${someWorkflow}/versions`, {
    token: owner.token,
    json: { description: 'first' },
  });
  expect(first.status).toBe(200);
});
useFreshUsers(
  () => harness,
  (users) => ({ alice, bob } = users),
);

const { call, newWorkflow, snapshotRows } = snapshotCalls(() => harness);
const setDefinition = (id: string, label: string) =>
  call(alice, 'PUT', `/workflows/${id}`, { definition: chainDefinition(2, 2, label) });

describe('GET and POST /workflows/{id}/versions, GET /workflows/{id}/versions/{version}', () => {
  it('snapshots the current version, lists version descending with total, reads by number', async () => {
    const id = await newWorkflow(alice);
    const first = await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'first' });
    expect([first.status, first.body.data.version, first.body.data.description]).toEqual([200, 1, 'first']);
    expect(first.body.data.definition).toEqual(chainDefinition(2, 2, 'v1'));
    for (const label of ['v2', 'v3']) {
      await setDefinition(id, label);
      expect((await call(alice, 'POST', `/workflows/${id}/versions`, { description: label })).status).toBe(
        200,
      );
    }
    const list = await call(alice, 'GET', `/workflows/${id}/versions?page=1&page_size=2`);
    expect(list.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(list.body.data.items.map((s: { version: number }) => s.version)).toEqual([3, 2]);
    const page2 = await call(alice, 'GET', `/workflows/${id}/versions?page=2&page_size=2`);
    expect(page2.body.data.items.map((s: { version: number }) => s.version)).toEqual([1]);
    const two = await call(alice, 'GET', `/workflows/${id}/versions/2`);
    expect(two.body.data).toMatchObject({ version: 2, description: 'v2', created_by: alice.id });
    expect(two.body.data.definition).toEqual(chainDefinition(2, 2, 'v2'));
    const unknown = await call(alice, 'GET', `/workflows/${id}/versions/9`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 4000]);
    const bad = await call(alice, 'GET', `/workflows/${id}/versions/zero`);
    expect([bad.status, bad.body.code]).toEqual([422, 1001]);
  });

  it('refuses a second snapshot of one version with 409 / 1002', async () => {
    const id = await newWorkflow(alice);
    expect((await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'a' })).status).toBe(200);
    const again = await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'b' });
    expect([again.status, again.body.code, again.body.data.version]).toEqual([409, 1002, 1]);
  });

  it('a burst of 15 concurrent snapshot requests writes one snapshot; the others answer 409', async () => {
    const id = await newWorkflow(alice);
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call(alice, 'POST', `/workflows/${id}/versions`, { description: `s${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(14).fill(409)]);
    expect(await snapshotRows(id)).toEqual([1]);
  });

  it('others cannot list, read, snapshot, publish or restore (404)', async () => {
    const id = await newWorkflow(alice);
    await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'a' });
    for (const [method, path, json] of [
      ['GET', `/workflows/${id}/versions`, undefined],
      ['GET', `/workflows/${id}/versions/1`, undefined],
      ['POST', `/workflows/${id}/versions`, { description: 'x' }],
      ['POST', `/workflows/${id}/publish`, { presentation_mode: 'simple' }],
      ['POST', `/workflows/${id}/versions/1/restore`, {}],
    ] as const) {
      const res = await call(bob, method, path, json);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 4000]);
    }
  });
});

describe('POST /workflows/{id}/versions/{version}/restore', () => {
  it('snapshots the current state, writes the target at version + 1 and snapshots that', async () => {
    const id = await newWorkflow(alice);
    await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'one' });
    await call(alice, 'PUT', `/workflows/${id}`, {
      definition: chainDefinition(4, 2, 'v2'),
      variables: { b: 2 },
      trigger_type: 'schedule',
      trigger_config: { cron: '0 * * * *' },
    });
    const restored = await call(alice, 'POST', `/workflows/${id}/versions/1/restore`, {
      description: 'back',
    });
    expect(restored.body.data).toMatchObject({
      version: 3,
      definition: chainDefinition(2, 2, 'v1'),
      variables: { a: 1 },
      trigger_type: 'manual',
      trigger_config: {},
    });
    expect(await snapshotRows(id)).toEqual([1, 2, 3]);
    const before = await call(alice, 'GET', `/workflows/${id}/versions/2`);
    expect(before.body.data).toMatchObject({ trigger_type: 'schedule', variables: { b: 2 } });
    expect(before.body.data.definition).toEqual(chainDefinition(4, 2, 'v2'));
    const after = await call(alice, 'GET', `/workflows/${id}/versions/3`);
    expect(after.body.data).toMatchObject({ description: 'back', trigger_type: 'manual' });
    const unknown = await call(alice, 'POST', `/workflows/${id}/versions/7/restore`, {});
    expect([unknown.status, unknown.body.code]).toEqual([404, 4000]);
    expect((await call(alice, 'GET', `/workflows/${id}`)).body.data.version).toBe(3);
  });

  it('concurrent restores and PUTs (burst of 16) serialize: versions consecutive, one snapshot each', async () => {
    const id = await newWorkflow(alice);
    await call(alice, 'POST', `/workflows/${id}/versions`, { description: 'one' });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2 === 0
          ? call(alice, 'POST', `/workflows/${id}/versions/1/restore`, {})
          : setDefinition(id, `burst${i}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    const final = (await call(alice, 'GET', `/workflows/${id}`)).body.data.version as number;
    // Every PUT and every restore moved the version by exactly one.
    expect(final).toBe(17);
    const versions = await snapshotRows(id);
    expect(new Set(versions).size).toBe(versions.length);
    const restoredVersions = results.filter((_, i) => i % 2 === 0).map((r) => r.body.data.version as number);
    for (const version of restoredVersions) expect(versions).toContain(version);
  });
});

describeRouteSecurity('the /workflows/{id}/versions routes', () => ({
  harness,
  routes: [
    ['GET', `/workflows/${someWorkflow}/versions`],
    ['POST', `/workflows/${someWorkflow}/versions`, { description: 'refused' }],
    ['GET', `/workflows/${someWorkflow}/versions/1`],
    ['POST', `/workflows/${someWorkflow}/versions/1/restore`, {}],
  ],
}));
