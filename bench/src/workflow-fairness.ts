// Benchmark: fairness between users under a flood of runs (docs/security.md "Fairness between
// users: runs, streams and waits"). One user starts `--flood` amplifying runs at once (start → four
// templates, each repeating the previous text four times: 256 B in, 64 KiB out); meanwhile another
// user starts a trivial run (start → template → end) every `--every` ms. Measures the trivial runs'
// queue-to-start (created_at → started_at, both Postgres clocks): p50 / p99 / max, and the worker
// process's resident memory (peak RSS, VmHWM) against the container limit in deploy/k8s (512 MiB).
//
//   source deploy/local/env.sh && node bench/dist/workflow-fairness.js [--flood 1000] [--every 200]
//
// Needs the local stack (identity on 50061 answers GetDefaultTeam) and `pnpm build`; it starts its
// own workflows process from this checkout (port 50187, own database and queue topic, dropped at the
// end) with the service's defaults, except RUN_MAX_UNFINISHED_PER_USER = the flood size (else all
// but 200 of the flood would be refused at start and nothing would be left to be unfair with).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { RUN_MODES, toJsonValue, workflowRunsV1, workflowsV1 } from '@platform/contracts';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createServiceClient, type Principal } from '@platform/grpc';
import { spawnBuiltService } from './lib/children.js';
import { gatewayCredentials } from './lib/trust.js';

const { values } = parseArgs({
  options: { flood: { type: 'string', default: '1000' }, every: { type: 'string', default: '200' } },
});
const FLOOD = Number(values.flood);
const EVERY_MS = Number(values.every);
const PORT = 50187;
const MEMORY_LIMIT_MIB = 512; // deploy/k8s/base/workflows.yaml resources.limits.memory
const admin = process.env.POSTGRES_ADMIN_URL;
if (!admin) throw new Error('POSTGRES_ADMIN_URL is not set (source deploy/local/env.sh)');
const database = `bench_fairness_${randomUUID().slice(0, 8)}`;

const user = (username: string): Principal => ({
  user_id: randomUUID(),
  username,
  is_superuser: false,
  permissions: ['workflow:*'],
  team_ids: [],
  auth_method: 'jwt',
});
const flooder = user('flooder');
const bystander = user('bystander');

function amplifying() {
  const stages = ['a1', 'a2', 'a3', 'a4'];
  const nodes = [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'seed', type: 'string', required: true }] } },
    ...stages.map((id, i) => {
      const previous = i === 0 ? '{{inputs.seed}}' : `{{${stages[i - 1]}.text}}`;
      return { id, type: 'template', data: { template: previous.repeat(4) } };
    }),
    { id: 'end', type: 'end', data: { outputs: [{ name: 'size', value: '{{a4.text}}' }] } },
  ];
  const order = ['start', ...stages, 'end'];
  const edges = order.slice(1).map((target, i) => ({ id: `e${i}`, source: order[i]!, target }));
  return { schema_version: 2, nodes, edges };
}

const trivial = {
  schema_version: 2,
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [] } },
    { id: 'hi', type: 'template', data: { template: 'hello' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'text', value: '{{hi.text}}' }] } },
  ],
  edges: [
    { id: 'e0', source: 'start', target: 'hi' },
    { id: 'e1', source: 'hi', target: 'end' },
  ],
};

await ensureDatabase(admin, database);
const service: ChildProcess = spawnBuiltService('workflows', {
  GRPC_PORT: String(PORT),
  METRICS_PORT: '0',
  DATABASE_URL: withDatabase(admin, database),
  QUEUE_TOPIC_PREFIX: `bench-fair-${randomUUID().slice(0, 8)}.`,
  RUN_WORKER_ENABLED: 'true',
  RUN_MAX_UNFINISHED_PER_USER: String(FLOOD),
});
const credentials = gatewayCredentials('workflows');
const address = `127.0.0.1:${PORT}`;
const workflows = createServiceClient(
  workflowsV1.WorkflowsServiceService,
  'platform.workflows.v1.WorkflowsService',
  address,
  {
    credentials,
    defaultTimeoutMs: 30_000,
  },
);
const runs = createServiceClient(
  workflowRunsV1.WorkflowRunsServiceService,
  'platform.workflows.v1.WorkflowRunsService',
  address,
  {
    credentials,
    defaultTimeoutMs: 30_000,
  },
);
const pool = createPool(withDatabase(admin, database), { max: 2 });

/** Peak resident memory of the worker, sampled, and the kernel's own high-water mark. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

async function createWorkflow(owner: Principal, defn: unknown): Promise<string> {
  for (let i = 0; ; i++) {
    try {
      const request = workflowsV1.CreateWorkflowRequest.fromPartial({ name: 'fair' });
      const created = await workflows.call(
        'createWorkflow',
        { ...request, definition_json: JSON.stringify(defn) },
        { principal: owner },
      );
      return created.id;
    } catch (error) {
      // The service migrates on start: retry until its tables exist.
      if (i > 150) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const start = (owner: Principal, workflowId: string, inputs: Record<string, unknown>) =>
  runs.call(
    'startRun',
    { workflow_id: workflowId, inputs: toJsonValue(inputs), mode: RUN_MODES.toProto('debug'), wait: false },
    {
      principal: owner,
    },
  );

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

try {
  await workflows.waitForReady(60_000);
  const floodWorkflow = await createWorkflow(flooder, amplifying());
  const trivialWorkflow = await createWorkflow(bystander, trivial);
  await start(bystander, trivialWorkflow, {}); // warm-up
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(service.pid!).rss)), 100);
  const seed = 'x'.repeat(256);
  const floodStarted = performance.now();
  // The flood: every StartRun at once, 64 in flight from the client.
  let next = 0;
  let refused = 0;
  const submitted = Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < FLOOD) {
        next += 1;
        await start(flooder, floodWorkflow, { seed }).catch(() => (refused += 1));
      }
    }),
  ).then(() => performance.now() - floodStarted);
  // The bystander, every EVERY_MS while the flood is unfinished.
  const probes: string[] = [];
  const unfinished = async () =>
    Number(
      (
        await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM workflow_runs WHERE user_id = $1 AND status IN ('queued', 'running')`,
          [flooder.user_id],
        )
      ).rows[0]!.n,
    );
  let submitMs = 0;
  void submitted.then((ms) => (submitMs = ms));
  for (;;) {
    probes.push((await start(bystander, trivialWorkflow, {})).run_id);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    if (submitMs > 0 && (await unfinished()) === 0) break;
    if (performance.now() - floodStarted > 300_000) throw new Error('the flood did not drain in 5 minutes');
  }
  const drainMs = performance.now() - floodStarted;
  clearInterval(sampler);
  const { hwm } = memoryOf(service.pid!);
  const { rows } = await pool.query<{ ms: number | null }>(
    `SELECT extract(epoch FROM (started_at - created_at)) * 1000 AS ms FROM workflow_runs WHERE id = ANY($1::uuid[])`,
    [probes],
  );
  const waits = rows.map((r) => (r.ms === null ? Infinity : Number(r.ms))).sort((a, b) => a - b);
  const { rows: flood } = await pool.query<{ status: string; n: string }>(
    `SELECT status, count(*) AS n FROM workflow_runs WHERE user_id = $1 GROUP BY status`,
    [flooder.user_id],
  );
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  console.log(
    `\nFlood of ${FLOOD} amplifying runs (256 B → 64 KiB over 4 templates) by one user; the flood's StartRuns took ${(submitMs / 1000).toFixed(1)} s (${refused} refused), the flood drained in ${(drainMs / 1000).toFixed(1)} s (${flood.map((r) => `${r.n} ${r.status}`).join(', ')})`,
  );
  console.log(
    '| probe runs (other user, trivial) | queue-to-start p50 ms | p99 ms | max ms | worker peak RSS (sampled) | worker VmHWM | limit | load average 1/5/15 |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${waits.length} | ${pct(waits, 50).toFixed(0)} | ${pct(waits, 99).toFixed(0)} | ${waits.at(-1)!.toFixed(0)} | ${peakRss.toFixed(0)} MiB | ${hwm.toFixed(0)} MiB | ${MEMORY_LIMIT_MIB} MiB | ${load} |`,
  );
} finally {
  workflows.close();
  runs.close();
  await pool.end();
  if (service.exitCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  await dropDatabase(admin, database);
}
