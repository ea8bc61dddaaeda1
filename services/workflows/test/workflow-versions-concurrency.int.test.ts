import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VERSION_TTL_SECONDS } from '../src/data/version-store.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from './support/harness.js';
import { startReplica, versionKeys, versionsClient } from './support/versions.js';

let harness: WorkflowsHarness;
let replica: Awaited<ReturnType<typeof startReplica>>;
let alice: TestUser;
let a: ReturnType<typeof versionsClient>;
/** The same user through the second replica's gateway. */
let a2: ReturnType<typeof versionsClient>;

beforeAll(async () => {
  harness = await startWorkflowsHarness();
  replica = await startReplica(harness);
}, 60_000);
beforeEach(async () => {
  alice = await harness.createUser();
  a = versionsClient(harness.request, alice);
  a2 = versionsClient(replica.request, alice);
});
afterAll(async () => {
  await replica?.stop();
  await harness?.stop();
});

const BURST = 20;

/** Exactly one published version, and the workflow's definition is its content. */
async function expectOnePublishedMatchingTheWorkflow(workflowId: string) {
  const published = (await a.history(workflowId, '?status=published')).body.data;
  expect(published.total).toBe(1);
  const version = (await a.read(workflowId, published.items[0].id)).body.data;
  const workflow = (await a.call('GET', `/workflows/${workflowId}`)).body.data;
  expect(workflow.definition.nodes).toEqual(version.nodes);
  expect(workflow.definition.edges).toEqual(version.edges);
  return { version, workflow };
}

describe('parallel bursts', () => {
  it(`${BURST} creates at once: ${BURST} distinct versions, all listed`, async () => {
    const wf = await a.workflow();
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => a.create(wf.id, 2, `c${i}`)));
    expect(new Set(results.map((v) => v.id)).size).toBe(BURST);
    const history = (await a.history(wf.id, '?limit=100')).body.data;
    expect(history.total).toBe(BURST);
    expect(new Set(history.items.map((v: { id: string }) => v.id))).toEqual(
      new Set(results.map((v) => v.id)),
    );
  });

  it(`${BURST} publishes of different versions at once: all answer, exactly one stays published`, async () => {
    const wf = await a.workflow();
    const versions: { id: string }[] = [];
    for (let i = 0; i < BURST; i += 1) versions.push(await a.create(wf.id, 2 + (i % 3), `p${i}`));
    const results = await Promise.all(versions.map((v, i) => (i % 2 ? a : a2).publish(wf.id, v.id)));
    expect(results.map((r) => [r.status, r.body.code])).toEqual(results.map(() => [200, 0]));
    expect((await a.stats(wf.id)).body.data).toMatchObject({
      total: BURST,
      published: 1,
      archived: BURST - 1,
    });
    const { version, workflow } = await expectOnePublishedMatchingTheWorkflow(wf.id);
    // Serialized: every publish wrote a different definition, so no increment was lost, and the
    // one published last (highest workflow_version) is the one left published.
    expect(workflow.version).toBe(1 + BURST);
    const last = results.reduce((max, r) =>
      r.body.data.workflow_version > max.body.data.workflow_version ? r : max,
    );
    expect(last.body.data.id).toBe(version.id);
  });

  it('rollbacks and publishes racing on both replicas leave exactly one published version', async () => {
    const wf = await a.workflow();
    const versions: { id: string }[] = [];
    for (let i = 0; i < 6; i += 1) versions.push(await a.create(wf.id, 2 + i, `r${i}`));
    await a.publish(wf.id, versions[0]!.id);
    const calls = Array.from({ length: BURST }, (_, i) => {
      const client = i % 2 ? a : a2;
      const target = versions[i % versions.length]!.id;
      if (i % 3 === 0) return client.publish(wf.id, target);
      return client.rollback(wf.id, { version_id: target, create_backup: i % 4 !== 1 });
    });
    const results = await Promise.all(calls);
    expect(results.map((r) => [r.status, r.body.code])).toEqual(results.map(() => [200, 0]));
    const rollbacks = results.filter((_, i) => i % 3 !== 0).length;
    const stats = (await a.stats(wf.id)).body.data;
    expect(stats.published).toBe(1);
    expect(stats.total).toBe(versions.length + rollbacks);
    await expectOnePublishedMatchingTheWorkflow(wf.id);
  });

  it('a publish waits for the workflow lock held elsewhere, then completes', async () => {
    const wf = await a.workflow();
    const version = await a.create(wf.id, 3);
    const redis = harness.workflows.dependencies.redis;
    const lock = `workflows:versions:{${wf.id}}:lock`;
    await redis.set(lock, 'someone-else', 'PX', 30_000);
    const pending = a.publish(wf.id, version.id);
    // An absence over time is the point: while the lock is held elsewhere the publish must not land.
    await sleep(300);
    expect((await a.read(wf.id, version.id)).body.data.status).toBe('draft');
    await redis.del(lock);
    const res = await pending;
    expect([res.status, res.body.data.status]).toEqual([200, 'published']);
  });
});

describe('two replicas share one store', () => {
  it('a version created through one replica is read, listed, published and diffed through the other', async () => {
    const wf = await a.workflow();
    const v1 = await a.create(wf.id, 2, 'r1');
    const v2 = await a2.create(wf.id, 3, 'r2');
    expect((await a2.read(wf.id, v1.id)).body.data).toEqual((await a.read(wf.id, v1.id)).body.data);
    expect((await a.history(wf.id)).body.data.items.map((v: { id: string }) => v.id)).toEqual([v2.id, v1.id]);
    expect((await a2.publish(wf.id, v1.id)).body.code).toBe(0);
    expect((await a.read(wf.id, v1.id)).body.data.status).toBe('published');
    expect((await a.diff(wf.id, v1.id, v2.id)).body.data.added_nodes).toHaveLength(1);
    expect((await a2.stats(wf.id)).body.data).toEqual((await a.stats(wf.id)).body.data);
  });
});

describe('expiry', () => {
  it('every key of the workflow expires 30 days after the last write; reads do not extend it', async () => {
    const wf = await a.workflow();
    const v1 = await a.create(wf.id);
    const redis = harness.workflows.dependencies.redis;
    const keys = versionKeys(wf.id).filter(
      (key) => !key.endsWith(':published') && !key.endsWith(':archived'),
    );
    for (const key of keys) {
      const ttl = await redis.ttl(key);
      expect([key, ttl > VERSION_TTL_SECONDS - 60 && ttl <= VERSION_TTL_SECONDS]).toEqual([key, true]);
    }
    for (const key of keys) await redis.expire(key, 100);
    await a.read(wf.id, v1.id);
    await a.history(wf.id);
    await a.stats(wf.id);
    for (const key of keys) expect(await redis.ttl(key)).toBeLessThanOrEqual(100);
    // A write (here: publishing) refreshes the whole key space, the new index keys included.
    await a.publish(wf.id, v1.id);
    for (const key of versionKeys(wf.id).filter((k) => !k.endsWith(':draft') && !k.endsWith(':archived'))) {
      const ttl = await redis.ttl(key);
      expect([key, ttl > VERSION_TTL_SECONDS - 60]).toEqual([key, true]);
    }
  });

  it('nothing of the store is written to Postgres', async () => {
    const wf = await a.workflow();
    const version = await a.create(wf.id, 2, 'pg-check');
    const pool = harness.workflows.dependencies.pool;
    const { rows } = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    for (const { table_name } of rows) {
      const found = await pool.query(`SELECT 1 FROM "${table_name}" t WHERE t::text LIKE $1 LIMIT 1`, [
        `%${version.id}%`,
      ]);
      expect([table_name, found.rowCount]).toEqual([table_name, 0]);
    }
  });
});
