// The inbox read model (Redis) against the MongoDB queries it stands in for: the same first pages
// and unread counts after creates, reads, deletes, expiry and membership changes; no write lost to a
// build running at the same time or to Redis being unreachable. Use cases run in-process on a fresh
// database and a private Redis key prefix (the gateway path is covered by notifications-user tests).
import type { Principal } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis } from '@platform/redis';
import { stackEnv, uniqueName, waitUntil } from '@platform/testing';
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxIndex } from '../src/data/inbox-index.js';
import { audiencesOf, notificationModels, type NotificationDoc } from '../src/data/models.js';
import { indexedPage, indexedUnreadCount, moveEpochOnReconnect } from '../src/domain/inbox-read-model.js';
import { deleteNotification } from '../src/domain/admin-notifications.js';
import { markRead } from '../src/domain/mark-read.js';
import { storeNotifications, toDocument, type NewNotification } from '../src/domain/store-notifications.js';
import { listNotifications, unreadCount } from '../src/domain/user-notifications.js';

const database = uniqueName('inbox_model').replace(/-/g, '_');
const url = new URL(stackEnv.mongoUrl);
url.pathname = `/${database}`;
const connection = mongoose.createConnection(url.toString());
const models = notificationModels(connection);
const logger = createLogger('inbox-read-model-test', 'silent');
const redis = createRedis(stackEnv.redisUrl, { logger });
const prefix = `${uniqueName('inbox-test')}:`;
let clock = new Date('2026-06-01T12:00:00Z');
const now = () => clock;

/** Never answers: every use case takes the MongoDB path. */
class SwitchedOff extends InboxIndex {
  override ready(): Promise<boolean[]> {
    return Promise.reject(new Error('switched off'));
  }
  override write(): Promise<void> {
    return Promise.resolve();
  }
}
const inbox = new InboxIndex(redis, prefix, database, 60_000);
const config = { NOTIFICATION_PAGE_WINDOW: 10_000 };
const withModel = {
  models,
  now,
  logger,
  inbox,
  config,
  delivery: undefined as never,
  directory: undefined as never,
};
const mongoOnly = { ...withModel, inbox: new SwitchedOff(redis, prefix, 'off', 1) };

const teams = [randomUUID(), randomUUID()];
const users = [randomUUID(), randomUUID(), randomUUID()];
const admin: Principal = {
  user_id: randomUUID(),
  username: 'admin',
  is_superuser: true,
  permissions: [],
  team_ids: [],
  auth_method: 'jwt',
};
const member = (user: number, teamIds = [teams[user % 2]!]): Principal => ({
  user_id: users[user]!,
  username: `u${user}`,
  is_superuser: false,
  permissions: [],
  team_ids: teamIds,
  auth_method: 'jwt',
});

const page = (p = 1, size = 20) => ({
  scope: '',
  type: '',
  level: '',
  search: '',
  unread_only: false,
  created_from: '',
  created_to: '',
  page: p,
  page_size: size,
});

function notification(
  scope: 'global' | 'team' | 'user',
  target: string | null,
  extra: Partial<NewNotification> = {},
) {
  return {
    id: randomUUID(),
    scope,
    team_id: scope === 'team' ? target : null,
    user_id: scope === 'user' ? target : null,
    type: 'system',
    source: 'test',
    title: 'hello',
    content: 'world',
    level: 'low',
    data: null,
    link_url: null,
    expires_at: null,
    ...extra,
  } satisfies NewNotification;
}

async function create(...inputs: NewNotification[]): Promise<NotificationDoc[]> {
  return storeNotifications(withModel, inputs, []);
}

/** The read model's answers equal MongoDB's, page by page. */
async function expectSameAnswers(caller: Principal, size = 5): Promise<void> {
  // the read model answers (no silent fall back to MongoDB)
  const audiences = audiencesOf(caller.user_id, caller.team_ids);
  expect(await indexedUnreadCount(withModel, audiences, caller.user_id, clock)).not.toBeNull();
  expect(await indexedPage(withModel, audiences, caller.user_id, clock, size)).not.toBeNull();
  const expectedCount = await unreadCount(mongoOnly, caller);
  expect(await unreadCount(withModel, caller)).toEqual(expectedCount);
  const first = await listNotifications(mongoOnly, caller, page(1, size));
  const pages = Math.max(1, Math.ceil(first.total / size));
  for (let p = 1; p <= pages + 1; p += 1) {
    expect(await listNotifications(withModel, caller, page(p, size))).toEqual(
      await listNotifications(mongoOnly, caller, page(p, size)),
    );
  }
}

beforeAll(async () => {
  await connection.asPromise();
  await Promise.all(Object.values(models).map((model) => model.syncIndexes()));
});

afterAll(async () => {
  for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
  await closeRedis(redis);
  await connection.dropDatabase().catch(() => undefined);
  await connection.close();
});

describe('inbox read model', () => {
  it('answers as MongoDB does through creates, ties, expiry, reads, deletes and membership changes', async () => {
    await create(notification('global', null));
    await expectSameAnswers(member(0)); // units built here
    // ties on created_at are broken by id, as MongoDB sorts them
    await create(...Array.from({ length: 7 }, () => notification('team', teams[0]!)));
    clock = new Date(clock.getTime() + 1000);
    await create(
      notification('user', users[0]!),
      notification('user', users[0]!, { expires_at: new Date(clock.getTime() + 5_000) }),
      notification('team', teams[1]!),
    );
    await expectSameAnswers(member(0));
    await expectSameAnswers(member(1));
    await markRead(withModel, member(0), { notification_ids: [], mark_all: true });
    await expectSameAnswers(member(0));
    clock = new Date(clock.getTime() + 1000);
    const fresh = await create(notification('team', teams[0]!), notification('global', null));
    await expectSameAnswers(member(0));
    // the expiring one passes its time: gone from the list and the count on both paths
    clock = new Date(clock.getTime() + 10_000);
    await expectSameAnswers(member(0));
    // a delete takes the notification and its read records along
    await markRead(withModel, member(2, [teams[0]!]), { notification_ids: [fresh[0]!._id], mark_all: false });
    await deleteNotification(withModel, admin, fresh[0]!._id, {
      ip: '127.0.0.1',
      userAgent: 't',
      requestId: 'r',
      locale: 'en',
    });
    await expectSameAnswers(member(2, [teams[0]!]));
    await expectSameAnswers(member(0));
    // leaving a team: its notifications and the reads of them stop counting
    await expectSameAnswers(member(0, []));
    await expectSameAnswers(member(0, [teams[1]!]));
  });

  it('a write made while a unit is being built is in the built unit', async () => {
    const team = randomUUID();
    const caller = member(1, [team]);
    await create(notification('team', team));
    const unit = { kind: 'a' as const, name: `t:${team}` };
    const token = (await inbox.beginBuild(unit))!;
    expect(token).toBeTruthy();
    // the build's scan ran before this create; the create lands in the build's log
    const rows = (await models.notifications.find({ audience: unit.name }).lean()).map((doc) => ({
      kind: 'audience' as const,
      id: doc._id,
      created: doc.created_at.getTime(),
      expires: null,
    }));
    const [late] = await create(notification('team', team));
    const epoch = (await models.inboxEpoch.findById('inbox').lean())?.value ?? 'initial';
    expect(await inbox.finishBuild(unit, token, epoch, rows)).toBe(true);
    const top = await inbox.audienceTop(unit.name, epoch, clock.getTime(), 10);
    expect(top?.count).toBe(2);
    expect(top?.top.map(([id]) => id)).toContain(late!._id);
    await expectSameAnswers(caller);
  });

  it('a write Redis did not take moves the epoch, so the next read rebuilds instead of missing it', async () => {
    const caller = member(2, [randomUUID()]);
    await expectSameAnswers(caller);
    const before = await models.inboxEpoch.findById('inbox').lean();
    // a Redis that cannot be reached: the MongoDB write stands, the read model write fails
    const unreachable = createRedis('redis://127.0.0.1:1/0', {
      logger,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    const broken = { ...withModel, inbox: new InboxIndex(unreachable, prefix, database, 60_000) };
    const doc = (await storeNotifications(broken, [notification('user', caller.user_id)], []))[0]!;
    unreachable.disconnect();
    const after = await models.inboxEpoch.findById('inbox').lean();
    expect(after?.value).toBeTruthy();
    expect(after?.value).not.toBe(before?.value);
    const listed = await listNotifications(withModel, caller, page());
    expect(listed.items.map((item) => item.id)).toContain(doc._id);
    await expectSameAnswers(caller);
  });

  it('reads without Redis are answered from MongoDB', async () => {
    const caller = member(0);
    const unreachable = createRedis('redis://127.0.0.1:1/0', {
      logger,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    const offline = { ...withModel, inbox: new InboxIndex(unreachable, prefix, database, 60_000) };
    expect(await unreadCount(offline, caller)).toEqual(await unreadCount(mongoOnly, caller));
    expect(await listNotifications(offline, caller, page())).toEqual(
      await listNotifications(mongoOnly, caller, page()),
    );
    unreachable.disconnect();
  });

  it('a parallel burst of creates, reads and first reads (concurrent builds) ends consistent', async () => {
    const team = randomUUID();
    const callers = users.map((_, i) => member(i, [team]));
    await Promise.all([
      ...Array.from({ length: 30 }, (_, i) =>
        create(notification(i % 3 === 0 ? 'team' : 'user', i % 3 === 0 ? team : users[i % 3]!)),
      ),
      ...Array.from({ length: 30 }, (_, i) => unreadCount(withModel, callers[i % 3]!)),
      ...Array.from({ length: 15 }, (_, i) => listNotifications(withModel, callers[i % 3]!, page())),
      ...Array.from({ length: 9 }, (_, i) =>
        markRead(withModel, callers[i % 3]!, { notification_ids: [], mark_all: true }),
      ),
    ]);
    for (const caller of callers) await expectSameAnswers(caller);
  });

  it('large writes (1,200 notifications created and marked read at once) go through in order', async () => {
    const caller = member(1, [randomUUID()]);
    await expectSameAnswers(caller); // built before the writes, so the writes are applied, not rebuilt
    await create(...Array.from({ length: 1200 }, () => notification('user', caller.user_id)));
    expect((await unreadCount(withModel, caller)).total).toBe((await unreadCount(mongoOnly, caller)).total);
    expect(
      (await markRead(withModel, caller, { notification_ids: [], mark_all: true })).updated,
    ).toBeGreaterThanOrEqual(1200);
    expect((await unreadCount(withModel, caller)).total).toBe(0);
    await expectSameAnswers(caller, 100);
  });

  it('a reconnect to Redis (a restart from an older snapshot) makes the next read rebuild', async () => {
    const client = createRedis(stackEnv.redisUrl, { logger });
    await waitUntil(() => (client.status === 'ready' ? true : undefined), 5_000, 'redis not ready');
    const deps = { ...withModel, redis: client, inbox: new InboxIndex(client, prefix, database, 60_000) };
    const stopWatching = moveEpochOnReconnect(deps);
    const caller = member(0, [randomUUID()]);
    await expectSameAnswers(caller);
    const before = (await unreadCount(deps, caller)).total;
    const [doc] = await storeNotifications(deps, [notification('user', caller.user_id)], []);
    // as a restart from a snapshot taken before that write: the unit's marker survived, the write not
    const [dataKey] = await client.keys(`${prefix}inbox:${database}:{a:u:${caller.user_id}}:data`);
    expect(await client.zrem(dataKey!, doc!._id)).toBe(1);
    expect((await unreadCount(deps, caller)).total).toBe(before);
    const epoch = (await models.inboxEpoch.findById('inbox').lean())?.value;
    client.disconnect(true); // drops the connection and reconnects
    await waitUntil(
      async () => ((await models.inboxEpoch.findById('inbox').lean())?.value !== epoch ? true : undefined),
      10_000,
      'epoch not moved after the reconnect',
    );
    expect((await unreadCount(deps, caller)).total).toBe(before + 1);
    await expectSameAnswers(caller);
    stopWatching();
    await closeRedis(client);
  });

  it('a unit whose time is up is rebuilt from MongoDB (the bound on a crash between the two writes)', async () => {
    const shortLived = new InboxIndex(redis, `${prefix}short:`, database, 1_000);
    const deps = { ...withModel, inbox: shortLived };
    const caller = member(1, [randomUUID()]);
    const before = (await unreadCount(mongoOnly, caller)).total;
    expect((await unreadCount(deps, caller)).total).toBe(before);
    // as if the process died after the MongoDB insert: this read model never hears of it
    await models.notifications.create(toDocument(notification('user', caller.user_id), clock));
    expect((await unreadCount(mongoOnly, caller)).total).toBe(before + 1);
    expect((await unreadCount(deps, caller)).total).toBe(before);
    // The unit's 1 s of trust runs out in Redis (the behaviour under test); reads do not extend it.
    await expect
      .poll(async () => (await unreadCount(deps, caller)).total, { timeout: 10_000, interval: 100 })
      .toBe(before + 1);
  });

  it('a page read scans a bounded part of an audience: deeper, or past that many expired, MongoDB answers', async () => {
    const capped = new InboxIndex(redis, `${prefix}capped:`, database, 60_000, { maxScan: 30, maxLog: 10 });
    const deps = { ...withModel, inbox: capped };
    const team = randomUUID();
    const caller = member(0, [team]);
    // the team's audience alone: other tests' global notifications stay out of the comparison
    const teamPage = { ...page(1, 5), scope: 'team' };
    const audiences = [`t:${team}`];
    const live = await create(notification('team', team), notification('team', team));
    // 40 newer ones that expire: a first page must step over all of them to reach the live ones
    clock = new Date(clock.getTime() + 1_000);
    const soon = new Date(clock.getTime() + 1_000);
    await create(...Array.from({ length: 40 }, () => notification('team', team, { expires_at: soon })));
    clock = new Date(clock.getTime() + 2_000);
    const expected = await listNotifications(mongoOnly, caller, teamPage);
    expect(expected.items.map((item) => item.id).sort()).toEqual(live.map((doc) => doc._id).sort());
    // builds the units, then is answered by MongoDB: the scan would pass 30 entries
    expect(await listNotifications(deps, caller, teamPage)).toEqual(expected);
    expect(await indexedPage(deps, audiences, caller.user_id, clock, 5)).toBeNull();
    // the count needs no scan and still comes from the read model
    expect(
      await indexedUnreadCount(deps, audiencesOf(caller.user_id, caller.team_ids), caller.user_id, clock),
    ).toBe((await unreadCount(mongoOnly, caller)).total);
    // a page deeper than the cap is never read from Redis
    const shallowTeam = randomUUID();
    await create(...Array.from({ length: 3 }, () => notification('team', shallowTeam)));
    const shallow = [`t:${shallowTeam}`];
    expect(await indexedPage(deps, shallow, users[0]!, clock, 30)).not.toBeNull();
    expect(await indexedPage(deps, shallow, users[0]!, clock, 31)).toBeNull();
  });

  it('writes logged during a build past the log cap abandon that build; the next read rebuilds', async () => {
    const capped = new InboxIndex(redis, `${prefix}logcap:`, database, 60_000, {
      maxScan: 1_000,
      maxLog: 10,
    });
    const deps = { ...withModel, inbox: capped };
    const team = randomUUID();
    const caller = member(1, [team]);
    const unit = { kind: 'a' as const, name: `t:${team}` };
    const token = (await capped.beginBuild(unit))!;
    expect(token).toBeTruthy();
    await capped.write(
      unit,
      Array.from({ length: 11 }, (_, i) => `+|${randomUUID()}|${clock.getTime() + i}|`),
    );
    const epoch = (await models.inboxEpoch.findById('inbox').lean())?.value ?? 'initial';
    expect(await capped.finishBuild(unit, token, epoch, [])).toBe(false);
    expect(await redis.exists(`${prefix}logcap:inbox:${database}:{a:${unit.name}}:log`)).toBe(0);
    await create(notification('team', team));
    expect(await listNotifications(deps, caller, page(1, 5))).toEqual(
      await listNotifications(mongoOnly, caller, page(1, 5)),
    );
    expect(
      await indexedPage(deps, audiencesOf(caller.user_id, caller.team_ids), caller.user_id, clock, 5),
    ).not.toBeNull();
  });
});
