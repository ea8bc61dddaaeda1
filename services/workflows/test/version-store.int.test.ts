import { randomUUID } from 'node:crypto';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import { stackEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionStore, type VersionMeta } from '../src/data/version-store.js';

// The store itself on the real Redis: the lock's give-up path and its order, the one-published
// rule of the Lua scripts without any lock.
let redis: Redis;
beforeAll(() => {
  redis = createRedis(stackEnv.redisUrl);
});
afterAll(async () => {
  await closeRedis(redis);
});

function meta(workflowId: string, status: VersionMeta['status'] = 'draft'): VersionMeta {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    workflow_id: workflowId,
    description: 'é/"quoted" 😀',
    status,
    created_by: randomUUID(),
    created_at: now,
    updated_at: now,
    node_count: 0,
    edge_count: 0,
    source_version_id: null,
  };
}
const body = { nodes: '[]', edges: '[]', config: '{}' };

describe('VersionStore', () => {
  it('gives up on a lock held elsewhere after lockWaitMs, without running the work', async () => {
    const store = new VersionStore(redis, { lockWaitMs: 150 });
    const workflowId = randomUUID();
    await redis.set(`workflows:versions:{${workflowId}}:lock`, 'other', 'PX', 5_000);
    let ran = false;
    const outcome = await store.withWorkflowLock(workflowId, async () => {
      ran = true;
    });
    expect([outcome.ran, ran]).toEqual([false, false]);
    await store.deleteAllVersions(workflowId);
  });

  it('serves callers of one process in arrival order, one at a time', async () => {
    const store = new VersionStore(redis);
    const workflowId = randomUUID();
    const order: number[] = [];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.withWorkflowLock(workflowId, async () => {
          inside += 1;
          most = Math.max(most, inside);
          // Work inside the lock (the point): a caller let in early would overlap this wait.
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(i);
          inside -= 1;
        }),
      ),
    );
    expect(order).toEqual([...Array(10).keys()]);
    expect(most).toBe(1);
  });

  it('never leaves two versions published, even when publishes race without the lock', async () => {
    const store = new VersionStore(redis);
    const workflowId = randomUUID();
    const versions = Array.from({ length: 30 }, () => meta(workflowId));
    for (const version of versions) await store.create(version, body);
    const at = new Date().toISOString();
    await Promise.all([
      ...versions.map((v) => store.setStatus(workflowId, v.id, 'published', at)),
      ...versions.slice(0, 10).map(() => store.create(meta(workflowId, 'published'), body, 'archived')),
    ]);
    const stats = await store.stats(workflowId);
    expect(stats).toMatchObject({ total: 40, published: 1, archived: 39, draft: 0 });
    const published = await store.history(workflowId, { limit: 100, offset: 0, status: 'published' });
    expect(published.items.map((v) => v.status)).toEqual(['published']);
    // The record text survives the Lua round trip (cjson) unchanged.
    const again = await store.getMeta(workflowId, versions[0]!.id);
    expect(again?.description).toBe('é/"quoted" 😀');
    expect(again?.source_version_id).toBeNull();
    expect(await store.setStatus(workflowId, randomUUID(), 'archived', at)).toBeNull();
    await store.deleteAllVersions(workflowId);
    expect(await store.stats(workflowId)).toMatchObject({ total: 0, first_version_at: null });
  });
});
