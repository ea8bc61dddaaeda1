// GET /workflows (gateway routes/workflows-routes.ts): the list, its paging and filters, bad query
// parameters, and the security cases. POST /workflows: post-workflows; a team's list:
// get-put-delete-workflows-id ("team workflows").
import { describe, expect, it } from 'vitest';
import type { WorkflowsHarness } from '../support/harness.js';
import { describeRouteSecurity } from '../support/route-security.js';
import { useFreshUsers, useWorkflowsHarness, type FreshUsers } from '../support/route-suite.js';
import { workflowCalls } from '../support/workflow-calls.js';

let harness: WorkflowsHarness;
let { alice, bob } = {} as FreshUsers;

useWorkflowsHarness((started) => {
  harness = started;
});
useFreshUsers(
  () => harness,
  (users) => ({ alice, bob } = users),
);

const { newWorkflow } = workflowCalls(() => harness);

describe('GET /workflows', () => {
  it('pages own workflows, filters by search and status, and never shows others', async () => {
    const tag = `tag${Date.now()}`;
    for (let i = 0; i < 3; i += 1) await newWorkflow(alice, { name: `${tag} A${i}` });
    await newWorkflow(alice, { name: 'other name' });
    await newWorkflow(bob, { name: `${tag} bob` });
    const page1 = await harness.request('GET', `/workflows?search=${tag}&page=1&page_size=2`, {
      token: alice.token,
    });
    expect(page1.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page1.body.data.items).toHaveLength(2);
    expect(page1.body.data.items[0]).not.toHaveProperty('definition');
    const page2 = await harness.request('GET', `/workflows?search=${tag}&page=2&page_size=2`, {
      token: alice.token,
    });
    expect(page2.body.data.items).toHaveLength(1);
    const all = await harness.request('GET', '/workflows?page_size=100', { token: alice.token });
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.items.every((w: { owner_id: string }) => w.owner_id === alice.id)).toBe(true);
    const published = await harness.request('GET', '/workflows?status=published', { token: alice.token });
    expect(published.body.data.total).toBe(0);
    const pct = await harness.request('GET', '/workflows?search=%25', { token: alice.token });
    expect(pct.body.data.total).toBe(0);
  });

  it('refuses out-of-range paging and bad filters with 422 / 1001', async () => {
    for (const query of ['page_size=0', 'page_size=101', 'page=0', 'status=gone', 'team_id=nope']) {
      const res = await harness.request('GET', `/workflows?${query}`, { token: alice.token });
      expect([query, res.status, res.body.code]).toEqual([query, 422, 1001]);
    }
  });
});

describeRouteSecurity('GET /workflows', () => ({ harness, routes: [['GET', '/workflows']] }));
