import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VERSION_RECORD_OVERHEAD_BYTES } from '../src/data/version-budget.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from './support/harness.js';
import { versionBody, versionKeys, versionsClient } from './support/versions.js';

/**
 * Issue 20: the ephemeral version store shares Redis with sessions and revocations, so one user
 * must not be able to fill it. A workflow keeps at most VERSIONS_MAX_PER_WORKFLOW versions (the
 * oldest unpublished ones are evicted); one user holds at most VERSIONS_MAX_BYTES_PER_USER bytes
 * (past it: 400 / 5400). Both hold under parallel bursts through the gateway.
 */
const CAP = 10;
const BUDGET = 1_048_576;

let harness: WorkflowsHarness;
let alice: TestUser;
let a: ReturnType<typeof versionsClient>;

beforeAll(async () => {
  harness = await startWorkflowsHarness({
    VERSIONS_MAX_PER_WORKFLOW: String(CAP),
    VERSIONS_MAX_BYTES_PER_USER: String(BUDGET),
  });
}, 60_000);
beforeEach(async () => {
  alice = await harness.createUser();
  a = versionsClient(harness.request, alice);
});
afterAll(async () => {
  await harness?.stop();
});

const redis = () => harness.workflows.dependencies.redis;
const ledgerTotal = async (user: TestUser) =>
  Number((await redis().get(`workflows:version-bytes:{${user.id}}:total`)) ?? 0);

/** A create body of about `kib` KiB (the bulk in a config key), labelled `label`. */
function bigVersion(workflowId: string, kib: number, label: string) {
  return versionBody(workflowId, 2, label, { viewport: { note: 'x'.repeat(kib * 1024) } });
}

/** Bytes a stored version is charged: its three bodies as stored, plus the record overhead. */
function charged(body: ReturnType<typeof bigVersion>): number {
  const text = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  return text(body.nodes) + text(body.edges) + text(body.config) + VERSION_RECORD_OVERHEAD_BYTES;
}

describe('versions per workflow', () => {
  it(`a burst of 3 × ${CAP} creates keeps ${CAP}: the newest, and the published one is never evicted`, async () => {
    const wf = await a.workflow();
    const first = await a.create(wf.id, 2, 'first');
    expect((await a.publish(wf.id, first.id)).body.code).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 3 * CAP }, (_, i) =>
        a.call('POST', '/workflow-versions', versionBody(wf.id, 2, `b${i}`)),
      ),
    );
    expect(results.map((r) => [r.status, r.body.code])).toEqual(results.map(() => [200, 0]));

    // The published one stays; the others kept are the newest creates (the highest sequences).
    const kept = await redis().zrange(versionKeys(wf.id)[2]!, 0, -1, 'WITHSCORES');
    expect(kept).toHaveLength(2 * CAP);
    const keptIds = kept.filter((_, i) => i % 2 === 0);
    const keptSequences = kept.filter((_, i) => i % 2 === 1).map(Number);
    expect(keptIds[0]).toBe(first.id);
    expect(keptSequences).toEqual([
      1,
      ...Array.from({ length: CAP - 1 }, (_, i) => 3 * CAP + 1 - (CAP - 2) + i),
    ]);
    expect((await a.stats(wf.id)).body.data).toMatchObject({ total: CAP, published: 1, draft: CAP - 1 });
    const created = results.map((r) => r.body.data.id as string);
    // Evicted versions are gone entirely (404), bodies included.
    const evicted = created.filter((id) => !keptIds.includes(id));
    expect(evicted).toHaveLength(3 * CAP - (CAP - 1));
    expect((await a.read(wf.id, evicted[0]!)).body.code).toBe(4000);
    const bodyFields = await redis().hlen(versionKeys(wf.id)[1]!);
    expect(bodyFields).toBe(3 * CAP);
  });

  it('evicted versions give their bytes back: the ledger equals what is stored', async () => {
    const wf = await a.workflow();
    const bodies = Array.from({ length: 2 * CAP }, (_, i) =>
      bigVersion(wf.id, 4, `l${String(i).padStart(2, '0')}`),
    );
    const results = await Promise.all(bodies.map((body) => a.call('POST', '/workflow-versions', body)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await ledgerTotal(alice)).toBe(CAP * charged(bodies[0]!));
  });
});

describe('bytes per user', () => {
  it('a parallel burst of ~98 KiB versions stops at the budget: the rest 400 / 5400, the budget never passed', async () => {
    const workflows = await Promise.all([a.workflow(), a.workflow(), a.workflow(), a.workflow()]);
    const bodies = Array.from({ length: 24 }, (_, i) =>
      bigVersion(workflows[i % 4]!.id, 98, `u${String(i).padStart(2, '0')}`),
    );
    const each = charged(bodies[0]!);
    const fits = Math.floor(BUDGET / each);
    const results = await Promise.all(bodies.map((body) => a.call('POST', '/workflow-versions', body)));

    const accepted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(fits);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(refused.map(() => [400, 5400]));
    expect(refused[0]!.body.data).toMatchObject({
      error_key: 'workflow_versions_budget_exceeded',
      limit: BUDGET,
      needed: each,
    });
    expect(refused[0]!.body.data.used).toBeGreaterThan(BUDGET - each);
    expect(await ledgerTotal(alice)).toBe(fits * each);
    let stored = 0;
    for (const wf of workflows) stored += (await a.stats(wf.id)).body.data.total;
    expect(stored).toBe(fits);

    // Another user is not affected by alice's full budget.
    const bob = versionsClient(harness.request, await harness.createUser());
    const bobs = await bob.workflow();
    expect((await bob.call('POST', '/workflow-versions', bigVersion(bobs.id, 98, 'bob'))).status).toBe(200);
  });

  it('forks and rollbacks are charged too, and a refused rollback leaves the workflow as it was', async () => {
    const wf = await a.workflow();
    const big = bigVersion(wf.id, 300, 'big');
    const versions = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await a.call('POST', '/workflow-versions', { ...big, description: `big ${i}` });
      expect(res.status).toBe(200);
      versions.push(res.body.data as { id: string });
    }
    const before = (await a.call('GET', `/workflows/${wf.id}`)).body.data;
    const results = await Promise.all([
      a.rollback(wf.id, { version_id: versions[0]!.id }),
      a.fork(wf.id, { version_id: versions[1]!.id, new_workflow_id: wf.id }),
    ]);
    expect(results.map((r) => [r.status, r.body.code])).toEqual([
      [400, 5400],
      [400, 5400],
    ]);
    expect((await a.call('GET', `/workflows/${wf.id}`)).body.data.version).toBe(before.version);
    expect((await a.stats(wf.id)).body.data.total).toBe(3);
  });

  it('deleting a workflow gives its versions’ bytes back', async () => {
    const wf = await a.workflow();
    const body = bigVersion(wf.id, 300, 'del');
    for (let i = 0; i < 3; i += 1)
      expect((await a.call('POST', '/workflow-versions', body)).status).toBe(200);
    const other = await a.workflow();
    const refused = await a.call('POST', '/workflow-versions', bigVersion(other.id, 300, 'other'));
    expect([refused.status, refused.body.code]).toEqual([400, 5400]);
    expect((await a.call('DELETE', `/workflows/${wf.id}`)).status).toBe(200);
    expect(await ledgerTotal(alice)).toBe(0);
    expect((await a.call('POST', '/workflow-versions', bigVersion(other.id, 300, 'other'))).status).toBe(200);
  });

  it('versions that expired with their workflow are pruned from the budget at the next refusal', async () => {
    const wf = await a.workflow();
    const body = bigVersion(wf.id, 300, 'exp');
    for (let i = 0; i < 3; i += 1)
      expect((await a.call('POST', '/workflow-versions', body)).status).toBe(200);
    // What the 30-day expiry does to an untouched workflow's key space.
    await redis().del(...versionKeys(wf.id));
    const res = await a.call('POST', '/workflow-versions', bigVersion(wf.id, 300, 'again'));
    expect([res.status, res.body.code]).toEqual([200, 0]);
    expect(await ledgerTotal(alice)).toBe(charged(bigVersion(wf.id, 300, 'again')));
  });
});
