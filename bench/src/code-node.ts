// Benchmark: what a code node costs a run, through the running platform (gateway → workflows run
// worker → `queue.sandbox` → the sandbox worker's isolate → `platform.sandbox-results` → the run).
//
//   ./platform up && source deploy/local/env.sh
//   node bench/dist/code-node.js [--idle 200] [--runs 400] [--clients 32] [--users 8] [--gap-ms 100]
//
// Idle: --idle runs one after another of each kind, interleaved: `trivial` (start → end), `template`
// (start → template → end: another node, run in the worker itself) and `code` (start → code → end,
// `main` adds 1). For each: the answer time of POST …/run with `wait: true`, and the run time in the
// worker (run_started → finished, from the run's events). "Added by the code node" is code − trivial
// and code − template at p50. Throughput: --runs runs of `trivial` then of `code`, --clients at a
// time, posted round-robin by --users users in teams of their own (the fairness caps stay out of it),
// from the first POST to the last finished run.
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { TokenService } from '@platform/auth';
import { createPool } from '@platform/db';
import { createKafka } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { insertIdentityUser, requester, type Requester } from '@platform/testing';
import { waitForRunsToFinish } from './lib/run-waits.js';

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '200' },
    runs: { type: 'string', default: '400' },
    clients: { type: 'string', default: '32' },
    users: { type: 'string', default: '8' },
    'gap-ms': { type: 'string', default: '100' },
  },
});
/**
 * Pause before each idle run, so the run meets an idle stack: without it a run overlaps the
 * aftermath of the one before (its facts and events being consumed by observability and
 * notifications, the outbox relay), and every kind pays for that noise. 0 measures back to back.
 */
const GAP_MS = Number(values['gap-ms']);
const IDLE = Number(values.idle);
const RUNS = Number(values.runs);
const CLIENTS = Number(values.clients);
const USERS = Number(values.users);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
}
const request: Requester = requester(process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080');
const identityDb = createPool(required('IDENTITY_DATABASE_URL'), { max: 2 });
const workflowsDb = createPool(required('WORKFLOWS_DATABASE_URL'), { max: 4 });
const tokens = new TokenService(required('SECRET_KEY'));

type Data = Record<string, unknown>;
async function ok(res: { body: { code: number; data: unknown } }, what: string): Promise<Data> {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Data;
}

const KINDS = ['trivial', 'template', 'code'] as const;
type Kind = (typeof KINDS)[number];
const node = (id: string, type: string, data: Data = {}) => ({ id, type, data });
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });
const start = node('start', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] });
const DEFINITIONS: Record<Kind, Data> = {
  trivial: {
    schema_version: 2,
    nodes: [start, node('end', 'end', { outputs: [{ name: 'n', value: '{{inputs.n}}' }] })],
    edges: [edge('start', 'end')],
  },
  template: {
    schema_version: 2,
    nodes: [
      start,
      node('step', 'template', { template: 'run {{inputs.n}}' }),
      node('end', 'end', { outputs: [{ name: 'n', value: '{{step.text}}' }] }),
    ],
    edges: [edge('start', 'step'), edge('step', 'end')],
  },
  code: {
    schema_version: 2,
    nodes: [
      start,
      node('calc', 'code', {
        language: 'javascript',
        code: 'function main(inputs) { return { n: inputs.n + 1 } }',
        inputs: { n: '{{inputs.n}}' },
      }),
      node('end', 'end', { outputs: [{ name: 'n', value: '{{calc.n}}' }] }),
    ],
    edges: [edge('start', 'calc'), edge('calc', 'end')],
  },
};

interface BenchUser {
  token: string;
  workflows: Record<Kind, string>;
}

async function setUp(): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i += 1) {
    const owner = await insertIdentityUser(identityDb, tokens, { name: `codebench${i}` });
    const team = await ok(
      await request('POST', '/teams', {
        token: owner.token,
        json: { name: `code-bench-${i}-${Date.now()}` },
      }),
      'team',
    );
    const workflows = {} as Record<Kind, string>;
    for (const kind of KINDS) {
      const created = await ok(
        await request('POST', '/workflows', {
          token: owner.token,
          json: { name: `code-bench-${kind}`, team_id: team.id, definition: DEFINITIONS[kind] },
        }),
        `workflow ${kind}`,
      );
      await ok(
        await request('POST', `/workflows/${String(created.id)}/publish`, {
          token: owner.token,
          json: { presentation_mode: 'simple' },
        }),
        'publish',
      );
      workflows[kind] = String(created.id);
    }
    users.push({ token: owner.token, workflows });
  }
  return users;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
};
const ms = (n: number) => n.toFixed(2);

/** Run time in the worker: the run_started event to finished_at, ms. */
async function workerTimes(ids: string[]): Promise<number[]> {
  const { rows } = await workflowsDb.query<{ ms: number }>(
    `SELECT extract(epoch FROM (r.finished_at - (SELECT min(e.created_at) FROM workflow_run_events e
                                                   WHERE e.run_id = r.id AND e.type = 'run_started'))) * 1000 AS ms
       FROM workflow_runs r WHERE r.id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.map((r) => Number(r.ms));
}

async function idle(users: BenchUser[]) {
  const answers: Record<Kind, number[]> = { trivial: [], template: [], code: [] };
  const ids: Record<Kind, string[]> = { trivial: [], template: [], code: [] };
  // Warm-up: plans cached, the sandbox's isolates and connections up.
  for (let i = 0; i < 20; i += 1) {
    for (const kind of KINDS) {
      const user = users[i % users.length]!;
      await request('POST', `/workflows/${user.workflows[kind]}/run`, {
        token: user.token,
        json: { inputs: { n: i }, wait: true },
      });
    }
  }
  for (let i = 0; i < IDLE; i += 1) {
    for (const kind of KINDS) {
      const user = users[i % users.length]!;
      if (GAP_MS > 0) await delay(GAP_MS);
      const sent = performance.now();
      const res = await request('POST', `/workflows/${user.workflows[kind]}/run`, {
        token: user.token,
        json: { inputs: { n: i }, wait: true },
      });
      answers[kind].push(performance.now() - sent);
      const data = await ok(res, `run ${kind}`);
      if (data.status !== 'success')
        throw new Error(`${kind} run ${String(data.run_id)}: ${JSON.stringify(data)}`);
      ids[kind].push(String(data.run_id));
    }
  }
  console.log(`\nIdle: ${IDLE} runs of each kind, one at a time (interleaved, ${GAP_MS} ms apart), ms`);
  console.log('| kind | answer p50 | answer p90 | answer p99 | in the worker p50 | in the worker p90 |');
  console.log('|---|---|---|---|---|---|');
  const worker: Record<Kind, ReturnType<typeof stats>> = {} as never;
  const answer: Record<Kind, ReturnType<typeof stats>> = {} as never;
  for (const kind of KINDS) {
    answer[kind] = stats(answers[kind]);
    worker[kind] = stats(await workerTimes(ids[kind]));
    console.log(
      `| ${kind} | ${ms(answer[kind].p50)} | ${ms(answer[kind].p90)} | ${ms(answer[kind].p99)} | ${ms(worker[kind].p50)} | ${ms(worker[kind].p90)} |`,
    );
  }
  const { rows } = await workflowsDb.query<{ p50: number; p90: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
            percentile_cont(0.9) WITHIN GROUP (ORDER BY duration_ms) AS p90
       FROM workflow_node_executions WHERE run_id = ANY($1::uuid[]) AND node_id = 'calc'`,
    [ids.code],
  );
  console.log(
    `\nAdded by the code node at p50: answer ${ms(answer.code.p50 - answer.trivial.p50)} ms over trivial, ` +
      `${ms(answer.code.p50 - answer.template.p50)} ms over template; in the worker ` +
      `${ms(worker.code.p50 - worker.trivial.p50)} ms over trivial. The code node's own row: ` +
      `p50 ${ms(Number(rows[0]?.p50))} ms, p90 ${ms(Number(rows[0]?.p90))} ms (whole ms).`,
  );
}

async function throughput(users: BenchUser[], kind: Kind) {
  let next = 0;
  const ids: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS, RUNS) }, async () => {
      while (next < RUNS) {
        const n = next++;
        const user = users[n % users.length]!;
        const res = await request('POST', `/workflows/${user.workflows[kind]}/run`, {
          token: user.token,
          json: { inputs: { n } },
        });
        ids.push(String((await ok(res, 'run')).run_id));
      }
    }),
  );
  await waitForRunsToFinish(workflowsDb, ids, 50);
  const seconds = (performance.now() - t0) / 1000;
  const { rows } = await workflowsDb.query<{ status: string; n: string }>(
    `SELECT status, count(*) AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) GROUP BY status`,
    [ids],
  );
  const statuses = rows.map((r) => `${r.status} ${r.n}`).join(', ');
  console.log(`| ${kind} | ${RUNS} | ${CLIENTS} | ${(RUNS / seconds).toFixed(1)} | ${statuses} |`);
}

/**
 * The code node's path without a run around it: the workflows service's own SandboxRunner (built
 * dist) sending `main` to the running sandbox worker and waiting for the answer, one at a time.
 */
async function roundTrip(count: number) {
  interface Runner {
    start(): void;
    stop(): Promise<void>;
    run(task: Record<string, unknown>, signal: AbortSignal): Promise<{ kind: string }>;
  }
  const module = (await import(
    new URL('../../services/workflows/dist/adapters/sandbox-runner.js', import.meta.url).href
  )) as { SandboxRunner: new (options: Record<string, unknown>) => Runner };
  const logger = createLogger('bench-code-node', 'warn');
  const kafka = createKafka({ brokers: required('KAFKA_BROKERS'), clientId: 'bench-code-node', logger });
  const runner = new module.SandboxRunner({
    kafka,
    logger,
    topicPrefix: process.env.QUEUE_TOPIC_PREFIX ?? '',
    memoryMb: 64,
    lostAfterMs: 5_000,
  });
  runner.start();
  const task = (n: number) => ({
    runId: 'bench',
    nodeId: 'calc',
    code: 'function main(inputs) { return { n: inputs.n + 1 } }',
    inputs: { n },
    timeoutMs: 2_000,
    maxBytes: 1_048_576,
  });
  const times: number[] = [];
  for (let i = 0; i < count + 20; i += 1) {
    if (GAP_MS > 0) await delay(GAP_MS);
    const sent = performance.now();
    const outcome = await runner.run(task(i), new AbortController().signal);
    if (outcome.kind !== 'result') throw new Error(`round trip ${i}: ${JSON.stringify(outcome)}`);
    if (i >= 20) times.push(performance.now() - sent);
  }
  const s = stats(times);
  console.log(
    `\nThe round trip alone (SandboxRunner → queue.sandbox → sandbox worker → platform.sandbox-results), ` +
      `${count} tasks ${GAP_MS} ms apart: p50 ${ms(s.p50)} ms, p90 ${ms(s.p90)} ms, p99 ${ms(s.p99)} ms`,
  );
  await runner.stop();
  await kafka.disconnect();
}

const users = await setUp();
await idle(users);
await roundTrip(Math.min(IDLE, 200));
console.log(`\nThroughput: ${RUNS} runs, ${CLIENTS} clients, from the first POST to the last finished run`);
console.log('| kind | runs | clients | runs/s | statuses |');
console.log('|---|---|---|---|---|');
for (const kind of ['trivial', 'code'] as const) await throughput(users, kind);
await identityDb.end();
await workflowsDb.end();
