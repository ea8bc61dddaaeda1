// Benchmark of the notification inbox queries at scale: the user list (first page) and the unread
// count, with N notifications across U users and T teams, on the real store (MongoDB wire; locally
// FerretDB 1.24 on Postgres). It runs the service's own use cases in-process against a bench
// database (dropped afterwards unless --keep), so the figures are the store's and the query
// design's, without the gateway's ~1 ms (see "Gateway vs direct gRPC").
//
//   source deploy/local/env.sh && node bench/dist/notifications-inbox.js \
//     [--notifications 1000000] [--users 10000] [--teams 100] [--samples 200] [--keep] [--reuse]
//
// Three ways: the MongoDB queries alone (read model switched off), the inbox read model in Redis
// cold (each sampled user's units built from MongoDB by that request), and warm (built already).
//
// Data: 1 ‰ global, ~10 % team (spread over the teams), the rest user-scope spread over the users;
// every user is in 2 teams; every user has read 20 of their notifications. Timestamps spread over
// the last 90 days.
import type { Principal } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { connectMongo, syncIndexes } from '@platform/mongo';
import { InboxIndex } from '@platform/notifications/dist/data/inbox-index.js';
import { closeRedis, createRedis } from '@platform/redis';
import {
  audienceOf,
  notificationModels,
  type NotificationDoc,
} from '@platform/notifications/dist/data/models.js';
import { listNotifications, unreadCount } from '@platform/notifications/dist/domain/user-notifications.js';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    notifications: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '10000' },
    teams: { type: 'string', default: '100' },
    samples: { type: 'string', default: '200' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    database: { type: 'string', default: 'bench_notifications' },
  },
});
const total = Number(values.notifications);
const userCount = Number(values.users);
const teamCount = Number(values.teams);
const samples = Number(values.samples);
const mongoBase = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:57017/notifications';
const url = new URL(mongoBase);
url.pathname = `/${values.database}`;

const connection = await connectMongo(url.toString(), {
  appName: 'bench',
  socketTimeoutMs: 0,
  maxPoolSize: 8,
});
const models = notificationModels(connection);
// Deterministic ids so a --reuse run finds the same users and teams.
const uuidOf = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const users = Array.from({ length: userCount }, (_, n) => uuidOf(1, n));
const teams = Array.from({ length: teamCount }, (_, n) => uuidOf(2, n));
const teamsOf = (user: number) => [teams[user % teamCount]!, teams[(user * 7 + 3) % teamCount]!];
const now = Date.now();
const DAY = 86_400_000;

async function seed(): Promise<void> {
  await connection.dropDatabase();
  await syncIndexes(connection);
  const globals = Math.max(1, Math.round(total / 1000));
  const teamScoped = Math.round(total / 10);
  const started = Date.now();
  let written = 0;
  let batch: NotificationDoc[] = [];
  // Read records: each user has read 20 of their own notifications.
  const reads: object[] = [];
  const readSoFar = new Map<string, number>();
  const flush = async () => {
    if (batch.length === 0) return;
    await models.notifications.collection.insertMany(batch as never[], { ordered: false });
    written += batch.length;
    batch = [];
    if (written % 100_000 < 5000) {
      const rate = Math.round(written / ((Date.now() - started) / 1000));
      console.log(`  ${written} notifications written (${rate}/s)`);
    }
  };
  for (let n = 0; n < total; n += 1) {
    const scope = n < globals ? 'global' : n < globals + teamScoped ? 'team' : 'user';
    const teamId = scope === 'team' ? teams[n % teamCount]! : null;
    const userId = scope === 'user' ? users[n % userCount]! : null;
    const created = new Date(now - Math.floor((((n * 7919) % total) / total) * 90 * DAY));
    batch.push({
      _id: randomUUID(),
      scope,
      audience: audienceOf(scope, teamId, userId),
      team_id: teamId,
      user_id: userId,
      type: ['team.member_added', 'apikey.expiring', 'security.login_anomaly', 'kb.doc_indexed'][n % 4]!,
      source: 'system',
      title: `Notification ${n}`,
      content: `Something happened (${n}); details follow in the body of this message.`,
      level: ['low', 'medium', 'high'][n % 3]!,
      data: null,
      link_url: null,
      status: 'active',
      expires_at: n % 50 === 0 ? new Date(now + (n % 100 === 0 ? -DAY : DAY)) : null,
      created_at: created,
      updated_at: created,
    });
    const doc = batch[batch.length - 1]!;
    if (userId && (readSoFar.get(userId) ?? 0) < 20) {
      readSoFar.set(userId, (readSoFar.get(userId) ?? 0) + 1);
      reads.push({
        _id: `${doc._id}:${userId}`,
        notification_id: doc._id,
        user_id: userId,
        audience: doc.audience,
        expires_at: doc.expires_at,
        read_at: new Date(),
      });
    }
    if (batch.length === 5000) await flush();
  }
  await flush();
  console.log(`seeded ${written} notifications in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const readStarted = Date.now();
  for (let index = 0; index < reads.length; index += 5000) {
    await models.reads.collection.insertMany(reads.slice(index, index + 5000) as never[], { ordered: false });
  }
  console.log(`seeded ${reads.length} read records in ${((Date.now() - readStarted) / 1000).toFixed(0)} s`);
}

function principalOf(user: number): Principal {
  return {
    user_id: users[user]!,
    username: `bench${user}`,
    is_superuser: false,
    permissions: [],
    team_ids: teamsOf(user),
    auth_method: 'jwt',
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(
  label: string,
  run: (principal: Principal) => Promise<unknown>,
  userOffset = 0,
): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const principal = principalOf((i * 7907 + userOffset) % userCount);
    const started = process.hrtime.bigint();
    await run(principal);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    process.stderr.write(`  ${label} #${i + 1}: ${times[times.length - 1]!.toFixed(0)} ms\n`);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  console.log(
    `| ${label} | ${samples} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} | ${mean.toFixed(1)} |`,
  );
}

if (!values.reuse) await seed();
// (No collection count here: FerretDB 1.24 answers it by decoding every document.)
console.log(
  `\nstore: ${mongoBase.replace(/\/[^/]*$/, '')} (${total} notifications, ${userCount} users, ${teamCount} teams)\n`,
);
const logger = createLogger('bench-inbox', 'error');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0', { logger });
const benchPrefix = `bench-inbox-${randomUUID()}:`;
const inbox = new InboxIndex(redis, benchPrefix, values.database, 900_000);
/** A read model that never answers: every call takes the MongoDB path. */
class SwitchedOff extends InboxIndex {
  override ready(): Promise<boolean[]> {
    return Promise.reject(new Error('read model switched off for the benchmark'));
  }
}
const config = { NOTIFICATION_PAGE_WINDOW: 10_000 };
const mongoOnly = {
  models,
  now: () => new Date(),
  logger,
  config,
  inbox: new SwitchedOff(redis, benchPrefix, 'off', 1),
};
const withModel = { models, now: () => new Date(), logger, config, inbox };
const listFirstPage = {
  scope: '',
  type: '',
  level: '',
  search: '',
  unread_only: false,
  created_from: '',
  created_to: '',
  page: 1,
  page_size: 20,
};
console.log('| query | samples | p50 ms | p99 ms | mean ms |');
console.log('|---|---|---|---|---|');
await measure('user list, page 1 of 20 — MongoDB queries only', (principal) =>
  listNotifications(mongoOnly, principal, listFirstPage),
);
await measure('unread count — MongoDB queries only', (principal) => unreadCount(mongoOnly, principal));
// Cold: the list builds the user's units (audiences and reads), so it is measured first for each
// user; unread count then runs on users the list has not touched.
await measure('user list, page 1 of 20 — read model cold', (principal) =>
  listNotifications(withModel, principal, listFirstPage),
);
await measure('unread count — read model cold', (principal) => unreadCount(withModel, principal), samples);
await measure('user list, page 1 of 20 — read model warm', (principal) =>
  listNotifications(withModel, principal, listFirstPage),
);
await measure('unread count — read model warm', (principal) => unreadCount(withModel, principal));
const sample = principalOf(1);
const fromMongo = await listNotifications(mongoOnly, sample, listFirstPage);
const fromModel = await listNotifications(withModel, sample, listFirstPage);
const same = JSON.stringify(fromMongo) === JSON.stringify(fromModel);
console.log(
  `\nuser 1 sees ${fromModel.total} notifications, ${(await unreadCount(withModel, sample)).total} unread ` +
    `(MongoDB: ${fromMongo.total}, ${(await unreadCount(mongoOnly, sample)).total}); first pages identical: ${same}`,
);
// Memory of what the read model built for the sampled users (data keys: sorted sets and hashes).
const modelKeys = await redis.keys(`${benchPrefix}*`);
let bytes = 0;
let entries = 0;
for (const key of modelKeys.filter((k) => k.endsWith(':data') || k.endsWith(':expiring'))) {
  bytes += Number(await redis.memory('USAGE', key));
  entries += (await redis.type(key)) === 'hash' ? await redis.hlen(key) : await redis.zcard(key);
}
console.log(
  `read model: ${modelKeys.length} keys, ${entries} entries, ${(bytes / 1024 / 1024).toFixed(1)} MiB ` +
    `(${entries > 0 ? Math.round(bytes / entries) : 0} bytes an entry)`,
);
for (const key of modelKeys) await redis.del(key);
await closeRedis(redis);
if (!values.keep) await connection.dropDatabase();
await connection.close();
