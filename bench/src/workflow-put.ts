// Benchmark: PUT /workflows/{id} with a changed definition (version bump under the row lock), as
// the gateway calls it (UpdateWorkflow over gRPC with a signed principal), by concurrent writers:
// all to ONE workflow (they queue on its row lock) and each to ITS OWN workflow. Closed loop:
// each writer sends its next PUT when the previous one answered. Afterwards the final versions
// are checked against the number of successful PUTs (no lost increment).
//
//   source deploy/local/env.sh && node bench/dist/workflow-put.js [--writers 16] [--duration 10] [--nodes 50]
//
// Needs the local stack and `pnpm build`; it does not touch the running services (own port
// 50185, own database, dropped at the end).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { workflowsV1 } from '@platform/contracts';
import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createServiceClient, type Principal } from '@platform/grpc';
import * as hdr from 'hdr-histogram-js';
import { spawnBuiltService } from './lib/children.js';
import { gatewayCredentials } from './lib/trust.js';

const { values } = parseArgs({
  options: {
    writers: { type: 'string', default: '16' },
    duration: { type: 'string', default: '10' },
    nodes: { type: 'string', default: '50' },
  },
});
const writers = Number(values.writers);
const duration = Number(values.duration);
const nodeCount = Number(values.nodes);
const PORT = 50185;
const admin = process.env.POSTGRES_ADMIN_URL;
if (!admin) throw new Error('POSTGRES_ADMIN_URL is not set (source deploy/local/env.sh)');
const database = `bench_workflows_${randomUUID().slice(0, 8)}`;

function definition(label: string) {
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({
    id: `n${i}`,
    type: i === 0 ? 'start' : 'llm',
    position: { x: i * 180, y: (i % 5) * 90 },
    data: { label: `${label} ${i}`, prompt: `Summarize step ${i} for ${label}`, temperature: 0.2 },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: `n${i}`, target: node.id }));
  return JSON.stringify({ schema_version: 2, nodes, edges });
}

const owner: Principal = {
  user_id: randomUUID(),
  username: 'bench',
  is_superuser: false,
  permissions: ['workflow:*'],
  team_ids: [],
  auth_method: 'jwt',
};

await ensureDatabase(admin, database);
const service: ChildProcess = spawnBuiltService('workflows', {
  GRPC_PORT: String(PORT),
  METRICS_PORT: '0',
  DATABASE_URL: withDatabase(admin, database),
});
const client = createServiceClient(
  workflowsV1.WorkflowsServiceService,
  'platform.workflows.v1.WorkflowsService',
  `127.0.0.1:${PORT}`,
  { credentials: gatewayCredentials('workflows'), defaultTimeoutMs: 30_000 },
);

const create = async () =>
  (
    await client.call(
      'createWorkflow',
      {
        ...workflowsV1.CreateWorkflowRequest.fromPartial({ name: 'bench' }),
        definition_json: definition('v0'),
      },
      { principal: owner },
    )
  ).id;

/** `targets[w]` is writer w's workflow; returns latency stats and the PUTs that succeeded per id. */
const versionOf = async (id: string) =>
  (await client.call('getWorkflow', { id }, { principal: owner })).version;

async function run(targets: string[]) {
  const before = new Map<string, number>();
  for (const id of new Set(targets)) before.set(id, await versionOf(id));
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000 });
  const succeeded = new Map<string, number>();
  let errors = 0;
  const stopAt = performance.now() + duration * 1000;
  const started = performance.now();
  await Promise.all(
    targets.map(async (id, writer) => {
      for (let i = 0; performance.now() < stopAt; i++) {
        const sentAt = performance.now();
        try {
          await client.call(
            'updateWorkflow',
            { id, definition_json: definition(`w${writer}-${i}`) },
            { principal: owner },
          );
          histogram.recordValue(Math.max(1, Math.round((performance.now() - sentAt) * 1000)));
          succeeded.set(id, (succeeded.get(id) ?? 0) + 1);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const ms = (percentile: number) => (histogram.getValueAtPercentile(percentile) / 1000).toFixed(3);
  const total = [...succeeded.values()].reduce((a, b) => a + b, 0);
  let lost = 0;
  for (const [id, count] of succeeded) lost += before.get(id)! + count - (await versionOf(id));
  return `${total} | ${Math.round(total / elapsed)} | ${ms(50)} | ${ms(99)} | ${ms(99.9)} | ${errors} | ${lost}`;
}

try {
  await client.waitForReady(60_000);
  // The service migrates on start; retry the first create until its tables exist.
  for (let i = 0; ; i++) {
    try {
      await create();
      break;
    } catch (error) {
      if (i > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const one = await create();
  const many = await Promise.all(Array.from({ length: writers }, () => create()));
  await run(many.slice(0, 2)); // warm-up (JIT, pools)
  const single = await run([one]);
  const shared = await run(Array(writers).fill(one));
  const separate = await run(many);
  console.log(
    `\nPUT with a changed definition (${nodeCount}-node graph, ${Math.round(definition('x').length / 1024)} KiB), ` +
      `${writers} closed-loop writers, ${duration}s each, latency in ms\n`,
  );
  console.log('| writers | PUTs | PUT/s | p50 ms | p99 ms | p99.9 ms | errors | lost increments |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| 1 writer, one workflow (baseline) | ${single} |`);
  console.log(`| ${writers} writers, one workflow | ${shared} |`);
  console.log(`| ${writers} writers, one workflow each | ${separate} |`);
} finally {
  client.close();
  if (service.exitCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  await dropDatabase(admin, database);
}
