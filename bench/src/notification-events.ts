// Benchmark of automatic notifications: N run-finished style notification events (the shape the
// workflows service publishes through its outbox) published in one burst to the built
// notifications service, started as a child process with its own database, topic prefix, Redis
// prefix and consumer group. Prints the drain time (first publish → last notification stored),
// events/s and CPU ms per event of the service, FerretDB and Postgres (from /proc/<pid>/stat).
//
//   source deploy/local/env.sh && node bench/dist/notification-events.js \
//     [--events 2000] [--rate <events/s>] [--enabled] [--profile-dir <dir>]
// Without --rate the events go in one burst (produce requests of 500); with it, one at a time.
// `workflow.run_success` is off by default (a successful run's event is read and dropped); with
// --enabled the bench switches it on first, so every event stores a notification. Drained = the
// group's committed offsets reached the topic's end. --profile-dir runs the service --cpu-prof.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { consumerLag, createKafka, createProducer, ensureTopics, Topics } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { closeMongo, connectMongo } from '@platform/mongo';
import { spawnBuiltService, stopChild } from './lib/children.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    rate: { type: 'string' },
    enabled: { type: 'boolean', default: false },
    'profile-dir': { type: 'string' },
  },
});
const total = Number(values.events);
const logger = createLogger('bench-notification-events', process.env.LOG_LEVEL ?? 'silent');
const PORT = 50_163;

const database = `bench_notif_events_${Date.now().toString(36)}`;
const prefix = `bench-${randomUUID().slice(0, 8)}.`;
const mongoUrl = (process.env.MONGO_URL ?? 'mongodb://127.0.0.1:57017/notifications').replace(
  /\/[^/]*$/,
  `/${database}`,
);
const topic = `${prefix}${Topics.NOTIFICATION_EVENTS}`;

/** utime + stime (+ cutime + cstime: reaped children) of a process in ms (100 Hz clock ticks). */
function cpuMs(pid: number | undefined, withReaped = false): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = fields[11]! + fields[12]!;
    return (withReaped ? own + fields[13]! + fields[14]! : own) * 10;
  } catch {
    return 0;
  }
}

/** FerretDB's and Postgres' CPU so far (Postgres: the postmaster, its live and its exited backends). */
function stackCpu(): { ferretdb: number; postgres: number } {
  // The stack runs from the main checkout; STACK_SH points elsewhere when needed.
  const script = process.env.STACK_SH ?? '/work/main/deploy/local/stack.sh';
  const status = execFileSync('bash', [script, 'status'], { encoding: 'utf8' });
  const pidOf = (name: string) => Number(new RegExp(`^${name}\\s+\\S+\\s+pid (\\d+)`, 'm').exec(status)?.[1]);
  const postmaster = pidOf('postgres');
  const backends = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(Number);
  return {
    ferretdb: cpuMs(pidOf('ferretdb'), true),
    postgres: cpuMs(postmaster, true) + backends.reduce((sum, pid) => sum + cpuMs(pid), 0),
  };
}

/** A run-finished notice as services/workflows/src/data/run-finish.ts writes it to the outbox. */
function runNotice(i: number) {
  const runId = randomUUID();
  const workflowId = randomUUID();
  return {
    id: `workflow.run_success:${runId}`,
    type: 'workflow.run_success',
    scope: 'user',
    team_id: '',
    user_id: `bench-user-${i % 50}`,
    title: 'Workflow run succeeded',
    content: `Run ${runId} of workflow ${workflowId} succeeded.`,
    level: 'low',
    data: { run_id: runId, workflow_id: workflowId, status: 'success', mode: 'normal', version: 1 },
    link_url: `/workflows/${workflowId}/runs/${runId}`,
    occurred_at: new Date().toISOString(),
    source_service: 'workflows',
  };
}

const groupId = `${prefix}notification-events`;
const kafka = createKafka({
  brokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:59092',
  clientId: 'bench',
  logger,
});
await ensureTopics(kafka, [topic], { logger });
/** Messages of the topic the group has not committed yet. */
const lag = async () => (await consumerLag(kafka, groupId, topic)).total;
const profile = values['profile-dir'];
const service = spawnBuiltService(
  'notifications',
  {
    GRPC_PORT: String(PORT),
    METRICS_PORT: '0',
    MONGO_URL: mongoUrl,
    IDENTITY_GRPC_ADDR: '127.0.0.1:1',
    EVENTS_TOPIC_PREFIX: prefix,
    QUEUE_TOPIC_PREFIX: prefix,
    REDIS_KEY_PREFIX: `${prefix}notifications:`,
    NOTIFICATION_EVENTS_GROUP: groupId,
  },
  profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
);
service.once('exit', (code) => {
  if (code !== 0 && code !== null) throw new Error(`the notifications service exited with ${code}`);
});
const connection = await connectMongo(mongoUrl, { logger });
if (values.enabled) {
  await connection
    .db!.collection<{ _id: string; [field: string]: unknown }>('auto_notification_config')
    .insertOne({
      _id: 'auto-notifications',
      channels: [],
      enabled_types: ['workflow.run_success', 'workflow.run_failed'],
      updated_at: new Date(),
      updated_by: 'bench',
    });
}
const notifications = () => connection.db!.collection('notifications').countDocuments({});

// A warm-up event: the consumer has joined and the collections exist before the clock starts.
const producer = createProducer(kafka);
const warmup = { ...runNotice(-1), type: 'workflow.run_failed' };
await producer.publishMany([
  { topic, message: { key: 'warmup', type: warmup.type, id: warmup.id, value: warmup } },
]);
for (let waited = 0; (await notifications()) < 1; waited += 250) {
  if (waited > 60_000) throw new Error('the service did not handle the warm-up event in 60 s');
  await new Promise((resolve) => setTimeout(resolve, 250));
}

while ((await lag()) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
const before = { service: cpuMs(service.pid), ...stackCpu() };
const started = Date.now();
const messages = Array.from({ length: total }, (_v, i) => {
  const notice = runNotice(i);
  return { topic, message: { key: notice.user_id, type: notice.type, id: notice.id, value: notice } };
});
const rate = values.rate ? Number(values.rate) : 0;
if (rate > 0) {
  // A trickle like finished runs: each event in its own produce request, on schedule.
  for (let i = 0; i < messages.length; i += 1) {
    const due = started + (i * 1000) / rate;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await producer.publishMany([messages[i]!]);
  }
} else {
  for (let i = 0; i < messages.length; i += 500) await producer.publishMany(messages.slice(i, i + 500));
}
const publishMs = Date.now() - started;
for (;;) {
  const left = await lag();
  if (left === 0) break;
  if (Date.now() - started > 600_000) throw new Error(`${left} of ${total} left after 10 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const drainMs = Date.now() - started;
const stored = (await notifications()) - 1;
// Keys claimed together share their created_at: distinct values = handler calls that stored events.
const claimBatches =
  (await connection.db!.collection('notification_event_keys').distinct('created_at')).length - 1;
const after = { service: cpuMs(service.pid), ...stackCpu() };
const perEvent = (key: keyof typeof before) => Number(((after[key] - before[key]) / total).toFixed(2));
console.log(
  JSON.stringify({
    events: total,
    enabled: values.enabled,
    rate: rate || 'burst',
    notifications_stored: stored,
    claim_batches: claimBatches,
    publish_ms: publishMs,
    drain_ms: drainMs,
    events_per_s: Math.round((total / drainMs) * 1000),
    cpu_ms_per_event: {
      notifications: perEvent('service'),
      ferretdb: perEvent('ferretdb'),
      postgres: perEvent('postgres'),
    },
  }),
);
await stopChild(service);
await producer.disconnect();
await kafka.disconnect();
await connection.db?.dropDatabase();
await closeMongo(connection);
