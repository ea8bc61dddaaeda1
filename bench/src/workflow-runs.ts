// Benchmark: workflow runs through the running platform (gateway → workflows → the `workflow`
// queue → run workers → Postgres journal), with the local OpenAI-compatible fake as the model.
//
//   ./platform up && source deploy/local/env.sh
//   node bench/dist/workflow-runs.js [--runs 300] [--clients 32] [--sse 40] [--kill true]
//                                    [--users 8] [--workers 2] [--kinds trivial,five_nodes_llm]
//
// Measures, for a trivial run (start → end) and a five-node run (start → template → condition →
// llm → end, the fake streaming 8 deltas):
//   - runs per second from the first POST to the last run_finished, with 1 worker (the stack's
//     workflows service) and 2 workers (a second workflows process started here);
//   - queue-to-start (created_at → the claim) and run time (claim → finished), p50 / p99;
//   - SSE: POST answered → first event on the stream, and a reconnect to a finished run with
//     Last-Event-ID → first replayed event;
//   - resume after SIGKILL of the second worker while it holds runs (with the default lease).
// Runs are posted round-robin by --users users, each in a team of its own, so the fairness caps
// (8 running per user, 16 per team, 200 unfinished per user) are not what is measured.
// It changes the stack's site settings (the model endpoint allowlist) and restores them at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TokenService } from '@platform/auth';
import { createPool, type Pool } from '@platform/db';
import { createKafka, groupIsStable, workerGroup } from '@platform/kafka';
import { openSse, requester, waitUntil, type Requester } from '@platform/testing';
import { ownSigningKeyEnv } from './lib/trust.js';
import { waitForRunsToFinish } from './lib/run-waits.js';
import { setUpWorkflowRuns, type BenchUser, type WorkflowKind } from './lib/workflow-runs-setup.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    clients: { type: 'string', default: '32' },
    sse: { type: 'string', default: '40' },
    kill: { type: 'string', default: 'true' },
    users: { type: 'string', default: '8' },
    workers: { type: 'string', default: '2' },
    kinds: { type: 'string', default: 'trivial,five_nodes_llm' },
  },
});
/** Which workflows the idle and throughput rows run (e.g. `--kinds trivial` for a profile). */
const KINDS = values.kinds.split(',') as WorkflowKind[];
/** Users, each in a team of its own, posting round-robin (so no user or team hits its fairness caps). */
const USERS = Number(values.users);
/** 1: only the running workflows service; 2: a second worker process is added for the last rows. */
const MAX_WORKERS = Number(values.workers);
const RUNS = Number(values.runs);
const CLIENTS = Number(values.clients);
const SSE_SAMPLES = Number(values.sse);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
}
const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const request: Requester = requester(gatewayUrl);
const identityDb = createPool(required('IDENTITY_DATABASE_URL'), { max: 2 });
const workflowsDb: Pool = createPool(required('WORKFLOWS_DATABASE_URL'), { max: 4 });
const tokens = new TokenService(required('SECRET_KEY'));

async function ok(res: { body: { code: number; data: unknown } }, what: string) {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown>;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 };
};
const ms = (n: number) => n.toFixed(1);

/** Runs `count` tasks with at most `clients` at a time. */
async function pooled<T>(count: number, clients: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

// --- set-up: users in their own teams, the models, three published workflows per user ---------

const setup = await setUpWorkflowRuns({ request, identityDb, tokens, userCount: USERS });
/** Run `n` goes to user `n mod USERS`: round-robin, so no user reaches its caps first. */
const userOf = (n: number): BenchUser => setup.users[n % setup.users.length]!;

/** Site settings reach the services through an event and a short cache: wait until a run passes. */
async function settingsApplied() {
  await waitUntil(
    async () => {
      const user = userOf(0);
      const res = await request('POST', `/workflows/${user.workflows.five_nodes_llm}/run`, {
        token: user.token,
        json: { inputs: { n: 0 }, wait: true },
      });
      return (await ok(res, 'warm-up run')).status === 'success' ? true : undefined;
    },
    60_000,
    'the model endpoint allowlist never applied',
    1_000,
  );
}

// --- a second worker: the built workflows service, env as deploy/local/services.sh gives it -----

const kafka = createKafka({ brokers: required('KAFKA_BROKERS'), clientId: 'bench-workflow-runs' });
const group = workerGroup('workflow', process.env.QUEUE_TOPIC_PREFIX ?? '');

async function startSecondWorker(): Promise<ChildProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...ownSigningKeyEnv('workflows'),
    GRPC_PORT: '50195',
    METRICS_PORT: '0',
    DATABASE_URL: required('WORKFLOWS_DATABASE_URL'),
    LOG_LEVEL: 'warn',
  };
  delete env.SECRET_KEY;
  delete env.PRINCIPAL_SIGNING_PRIVATE_KEY;
  delete env.TASK_SEAL_KEY;
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../services/workflows/dist/main.js', import.meta.url))],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitUntil(
    async () => ((await groupIsStable(kafka, group, 2)) ? true : undefined),
    90_000,
    'the second worker did not join the workflow queue group',
    250,
  );
  return child;
}

// --- measurements ------------------------------------------------------------------------------

interface RunTimes {
  created: Date;
  started: Date;
  finished: Date;
  status: string;
}

async function runTimes(ids: string[]): Promise<RunTimes[]> {
  const { rows } = await workflowsDb.query<{
    created_at: Date;
    started_at: Date;
    finished_at: Date;
    status: string;
  }>(
    `SELECT r.created_at, r.finished_at, r.status,
            (SELECT min(e.created_at) FROM workflow_run_events e WHERE e.run_id = r.id AND e.type = 'run_started') AS started_at
       FROM workflow_runs r WHERE r.id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.map((r) => ({
    created: r.created_at,
    started: r.started_at,
    finished: r.finished_at,
    status: r.status,
  }));
}

/** The figures the summary table takes, collected as the rows are printed. */
const figures: string[] = [];

async function throughput(kind: WorkflowKind, workers: number) {
  const t0 = Date.now();
  const posts: number[] = [];
  const ids = await pooled(RUNS, CLIENTS, async (n) => {
    const sent = performance.now();
    const user = userOf(n);
    const res = await request('POST', `/workflows/${user.workflows[kind]}/run`, {
      token: user.token,
      json: { inputs: { n } },
    });
    posts.push(performance.now() - sent);
    return String((await ok(res, 'run')).run_id);
  });
  await waitForRunsToFinish(workflowsDb, ids, 100);
  const times = await runTimes(ids);
  const failed = times.filter((t) => t.status !== 'success').length;
  const last = Math.max(...times.map((t) => t.finished.getTime()));
  const seconds = (last - t0) / 1000;
  const queue = summary(times.map((t) => t.started.getTime() - t.created.getTime()));
  const run = summary(times.map((t) => t.finished.getTime() - t.started.getTime()));
  const post = summary(posts);
  figures.push(
    `${kind}, ${workers} worker(s): ${(RUNS / seconds).toFixed(1)} runs/s, queue→start p99 ${queue.p99} ms under the burst`,
  );
  console.log(
    `| ${kind} | ${workers} | ${RUNS} | ${(RUNS / seconds).toFixed(1)} | ${ms(post.p50)} / ${ms(post.p99)} | ${queue.p50} / ${queue.p99} | ${run.p50} / ${run.p99} | ${failed} |`,
  );
}

/** One client, one run at a time, `wait: true`: the latency of a run on an idle platform. */
async function idleLatency(kind: WorkflowKind, samples = 30) {
  const answers: number[] = [];
  const ids: string[] = [];
  for (let n = 0; n < samples; n += 1) {
    const sent = performance.now();
    const run = await ok(
      await request('POST', `/workflows/${userOf(n).workflows[kind]}/run`, {
        token: userOf(n).token,
        json: { inputs: { n }, wait: true },
      }),
      'run',
    );
    answers.push(performance.now() - sent);
    if (run.status !== 'success') throw new Error(`idle run ended ${String(run.status)}`);
    ids.push(String(run.run_id));
  }
  const times = await runTimes(ids);
  const answer = summary(answers);
  const queue = summary(times.map((t) => t.started.getTime() - t.created.getTime()));
  const run = summary(times.map((t) => t.finished.getTime() - t.started.getTime()));
  figures.push(`${kind}, idle wait: true answer p50 ${ms(answer.p50)} ms (queue→start p50 ${queue.p50} ms)`);
  console.log(
    `| ${kind} | ${samples} | ${ms(answer.p50)} / ${ms(answer.p99)} | ${queue.p50} / ${queue.p99} | ${run.p50} / ${run.p99} |`,
  );
}

async function sseLatency() {
  const firstEvent: number[] = [];
  const replayFirst: number[] = [];
  for (let i = 0; i < SSE_SAMPLES; i += 1) {
    const owner = userOf(i);
    const started = await ok(
      await request('POST', `/workflows/${owner.workflows.five_nodes_llm}/run`, {
        token: owner.token,
        json: { inputs: { n: i } },
      }),
      'run',
    );
    const answered = performance.now();
    const url = `${gatewayUrl}/api/v1${String(started.stream_url)}`;
    const live = await openSse(url, { authorization: `Bearer ${owner.token}` });
    await live.waitFor(1, 30_000);
    firstEvent.push(performance.now() - answered);
    await live.ended;
    const count = live.events.length;
    const reconnect = performance.now();
    const replay = await openSse(url, { authorization: `Bearer ${owner.token}`, 'last-event-id': '2' });
    await replay.waitFor(1, 30_000);
    replayFirst.push(performance.now() - reconnect);
    await replay.ended;
    if (replay.events.length !== count - 2)
      throw new Error(`replay gave ${replay.events.length} of ${count - 2}`);
  }
  const first = summary(firstEvent);
  const again = summary(replayFirst);
  console.log(
    `| POST answered → first live event (five-node run) | ${SSE_SAMPLES} | ${ms(first.p50)} | ${ms(first.p99)} |`,
  );
  console.log(
    `| reconnect with Last-Event-ID to a finished run → first replayed event | ${SSE_SAMPLES} | ${ms(again.p50)} | ${ms(again.p99)} |`,
  );
}

/**
 * More slow runs than the stack's worker has slots (RUN_WORKER_CONCURRENCY 16): it claims its
 * share in StartRun's own statement, so only the rest reach the second worker, which is killed.
 */
const SLOW_RUNS = 24;

async function resumeAfterKill(second: ChildProcess) {
  const ids = await pooled(SLOW_RUNS, SLOW_RUNS, async (n) =>
    String(
      (
        await ok(
          await request('POST', `/workflows/${userOf(n).workflows.slow_llm}/run`, {
            token: userOf(n).token,
            json: { inputs: { n } },
          }),
          'run',
        )
      ).run_id,
    ),
  );
  const held = await waitUntil(
    async () => {
      const { rows } = await workflowsDb.query<{ id: string; lease_owner: string }>(
        `SELECT id, lease_owner FROM workflow_runs WHERE id = ANY($1::uuid[]) AND status = 'running'`,
        [ids],
      );
      const mine = rows.filter((r) => r.lease_owner.startsWith(`${second.pid}-`));
      return rows.length === ids.length && mine.length > 0 ? mine.map((r) => r.id) : undefined;
    },
    30_000,
    'the second worker never held a run',
    50,
  );
  const killedAt = Date.now();
  second.kill('SIGKILL');
  await waitUntil(
    async () => {
      const { rows } = await workflowsDb.query<{ n: string }>(
        `SELECT count(*) AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) AND status = 'success'`,
        [ids],
      );
      return Number(rows[0]!.n) === ids.length ? true : undefined;
    },
    180_000,
    'runs did not all finish after the kill',
    200,
  );
  const { rows } = await workflowsDb.query<{ resumed: Date }>(
    `SELECT min(created_at) AS resumed FROM workflow_run_events
      WHERE run_id = ANY($1::uuid[]) AND type = 'run_started' AND (data->>'attempt')::int > 1 GROUP BY run_id`,
    [held],
  );
  const delays = summary(rows.map((r) => r.resumed.getTime() - killedAt));
  console.log(
    `| SIGKILL of the worker holding ${held.length} of ${SLOW_RUNS} runs (RUN_LEASE_MS=${process.env.RUN_LEASE_MS ?? '15000'}, reconcile every ${process.env.RUN_RECONCILE_INTERVAL_MS ?? '5000'} ms) → resumed on the other worker | ${held.length} | ${delays.p50} | ${delays.max} |`,
  );
}

let second: ChildProcess | undefined;
try {
  console.log(
    `workflow runs: throughput rows ${RUNS} runs each, ${CLIENTS} clients posting (wait: false), ${USERS} users in their own teams\n`,
  );
  await settingsApplied();
  console.log(
    '| idle, one client, wait: true | runs | answer p50 / p99 ms | queue→start p50 / p99 ms | run p50 / p99 ms |',
  );
  console.log('|---|---|---|---|---|');
  for (const kind of KINDS) await idleLatency(kind);

  console.log('');
  console.log(
    '| workflow | workers | runs | runs/s | POST p50 / p99 ms | queue→start p50 / p99 ms | run p50 / p99 ms | not success |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const kind of KINDS) await throughput(kind, 1);
  if (MAX_WORKERS >= 2) {
    second = await startSecondWorker();
    for (const kind of KINDS) await throughput(kind, 2);
  }
  if (SSE_SAMPLES > 0) {
    console.log('\n| streaming | samples | p50 ms | p99 ms |\n|---|---|---|---|');
    await sseLatency();
  }
  if (values.kill === 'true' && second) {
    console.log('\n| resume | runs resumed | p50 ms after the kill | max ms |\n|---|---|---|---|');
    await resumeAfterKill(second);
  }
  console.log('\nfor the issue table:');
  for (const line of figures) console.log(`- ${line}`);
} finally {
  if (second && second.exitCode === null && second.signalCode === null) second.kill('SIGTERM');
  await setup.restore();
  await identityDb.end();
  await workflowsDb.end();
  await kafka.disconnect();
}
