// Benchmark: the ephemeral /workflow-versions store (Redis) on a workflow with 1,000 versions of a
// 200-node graph, called as the gateway calls it (WorkflowVersionsService over gRPC with a signed
// principal): history pages, diffs of random pairs, rollbacks (backup + copy + write-back to the
// workflow through the normal update path) and forks. One closed-loop caller per row unless the
// row says otherwise. Targets (issue 11): diff p95 <= 50 ms, rollback and fork <= 100 ms.
//
//   source deploy/local/env.sh && node bench/dist/workflow-versions.js [--versions 1000] [--nodes 200] [--samples 300]
//
// Needs the local stack and `pnpm build`; it does not touch the running services (own port 50186,
// own database, dropped at the end; the workflows are deleted first, which purges their versions).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { toJsonValue, VERSION_STATUSES, workflowsV1 } from '@platform/contracts';
import * as versionsV1 from '@platform/contracts/platform/workflows/v1/workflow_versions';
import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createServiceClient, type Principal } from '@platform/grpc';
import { spawnBuiltService } from './lib/children.js';
import { gatewayCredentials } from './lib/trust.js';

const { values } = parseArgs({
  options: {
    versions: { type: 'string', default: '1000' },
    nodes: { type: 'string', default: '200' },
    samples: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
  },
});
const versionCount = Number(values.versions);
const nodeCount = Number(values.nodes);
const samples = Number(values.samples);
const concurrency = Number(values.concurrency);
const PORT = 50186;
const admin = process.env.POSTGRES_ADMIN_URL;
if (!admin) throw new Error('POSTGRES_ADMIN_URL is not set (source deploy/local/env.sh)');
const database = `bench_wfv_${randomUUID().slice(0, 8)}`;

/** Version `v` of the graph: every node's data names the version in a few nodes, so diffs differ. */
function graph(v: number) {
  const nodes = Array.from({ length: nodeCount + (v % 7) }, (_, i) => ({
    id: `n${i}`,
    type: i === 0 ? 'start' : 'llm',
    position: { x: i * 180, y: (i % 5) * 90 },
    data: {
      label: `step ${i}`,
      prompt: `Summarize step ${i} of the pipeline${i % 20 === v % 20 ? ` (rev ${v})` : ''}`,
      model: i % 3 === 0 ? 'large' : 'small',
      temperature: 0.2,
    },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: `n${i}`, target: node.id }));
  return { nodes, edges, config: { schema_version: 2, metadata: { rev: v } } };
}

const owner: Principal = {
  user_id: randomUUID(),
  username: 'bench',
  is_superuser: false,
  permissions: ['workflow:*'],
  team_ids: [],
  auth_method: 'jwt',
};
const meta = { principal: owner };

await ensureDatabase(admin, database);
const service: ChildProcess = spawnBuiltService('workflows', {
  GRPC_PORT: String(PORT),
  METRICS_PORT: '0',
  DATABASE_URL: withDatabase(admin, database),
  // The benchmark measures one workflow of --versions versions: lift the per-workflow cap and
  // the per-user byte budget (docs/workflows.md "Limits") above what it stores.
  VERSIONS_MAX_PER_WORKFLOW: '10000',
  VERSIONS_MAX_BYTES_PER_USER: String(4 * 1024 * 1024 * 1024),
});
const options = { credentials: gatewayCredentials('workflows'), defaultTimeoutMs: 60_000 };
const workflows = createServiceClient(
  workflowsV1.WorkflowsServiceService,
  'platform.workflows.v1.WorkflowsService',
  `127.0.0.1:${PORT}`,
  options,
);
const versions = createServiceClient(
  versionsV1.WorkflowVersionsServiceService,
  'platform.workflows.v1.WorkflowVersionsService',
  `127.0.0.1:${PORT}`,
  options,
);

async function createWorkflow(): Promise<string> {
  const { nodes, edges } = graph(0);
  const request = workflowsV1.CreateWorkflowRequest.fromPartial({ name: 'bench versions' });
  return (
    await workflows.call(
      'createWorkflow',
      { ...request, definition_json: JSON.stringify({ schema_version: 2, nodes, edges }) },
      meta,
    )
  ).id;
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** `count` calls of `fn` by `callers` closed-loop callers; latency percentiles in ms. */
async function measure(count: number, callers: number, fn: () => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < count) {
        next += 1;
        const sentAt = performance.now();
        await fn();
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
  return {
    n: latencies.length,
    rate: Math.round(latencies.length / seconds),
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: at(100),
  };
}

const rows: string[] = [];
function report(name: string, callers: number, r: Awaited<ReturnType<typeof measure>>) {
  const ms = (value: number) => value.toFixed(2);
  rows.push(
    `| ${name} | ${callers} | ${r.n} | ${r.rate} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} |`,
  );
}

const made: string[] = [];
try {
  await workflows.waitForReady(60_000);
  // The service migrates on start; retry the first create until its tables exist.
  let workflowId = '';
  for (let i = 0; !workflowId; i++) {
    workflowId = await createWorkflow().catch((error: unknown) => {
      if (i > 100) throw error;
      return new Promise<string>((resolve) => setTimeout(() => resolve(''), 200));
    });
  }
  made.push(workflowId);
  const forkTarget = await createWorkflow();
  made.push(forkTarget);

  const ids: string[] = [];
  let v = 0;
  const create = async () => {
    const { nodes, edges, config } = graph((v += 1));
    const created = await versions.call(
      'createWorkflowVersion',
      {
        workflow_id: workflowId,
        nodes: toJsonValue(nodes),
        edges: toJsonValue(edges),
        config: toJsonValue(config),
        description: `v${v}`,
      },
      meta,
    );
    ids.push(created.summary!.id);
  };
  report('create (fill to 1,000)', concurrency, await measure(versionCount, concurrency, create));
  const bytes = JSON.stringify(graph(1)).length;
  await versions.call('publishWorkflowVersion', { workflow_id: workflowId, version_id: ids[0]! }, meta);

  const history = (status?: 'draft' | 'published' | 'archived') => () =>
    versions.call(
      'listWorkflowVersionHistory',
      {
        workflow_id: workflowId,
        limit: 20,
        offset: Math.floor(Math.random() * (versionCount - 20)),
        status: status ? VERSION_STATUSES.toProto(status) : undefined,
      },
      meta,
    );
  const diff = () =>
    versions.call(
      'diffWorkflowVersions',
      { workflow_id: workflowId, from_version: pick(ids), to_version: pick(ids) },
      meta,
    );
  // The floor on this machine: an RPC that does one Postgres round trip and no version work.
  report(
    'baseline: GetInfo (one Postgres query)',
    1,
    await measure(samples, 1, () => workflows.call('getInfo', {}, meta)),
  );
  report('history (limit 20, random offset)', 1, await measure(samples, 1, history()));
  report('history ?status=draft', 1, await measure(samples, 1, history('draft')));
  report(
    'stats',
    1,
    await measure(samples, 1, () =>
      versions.call('getWorkflowVersionStats', { workflow_id: workflowId }, meta),
    ),
  );
  report(
    'read (one version)',
    1,
    await measure(samples, 1, () =>
      versions.call('getWorkflowVersion', { workflow_id: workflowId, version_id: pick(ids) }, meta),
    ),
  );
  report('diff (random pair)', 1, await measure(samples, 1, diff));
  report('diff (random pair)', concurrency, await measure(samples, concurrency, diff));
  const rollback = () =>
    versions.call(
      'rollbackWorkflowVersion',
      { workflow_id: workflowId, version_id: pick(ids), create_backup: true },
      meta,
    );
  report('rollback (backup + copy + write-back)', 1, await measure(samples, 1, rollback));
  report('rollback, same workflow', concurrency, await measure(samples, concurrency, rollback));
  const fork = () =>
    versions.call(
      'forkWorkflowVersion',
      { workflow_id: workflowId, version_id: pick(ids), new_workflow_id: forkTarget },
      meta,
    );
  report('fork (into another workflow)', 1, await measure(samples, 1, fork));

  const stats = await versions.call('getWorkflowVersionStats', { workflow_id: workflowId }, meta);
  console.log(
    `\n/workflow-versions on one workflow with ${versionCount} versions of a ${nodeCount}-node graph ` +
      `(~${Math.round(bytes / 1024)} KiB each; ${stats.total} at the end), gRPC with a signed principal, latency in ms\n`,
  );
  console.log('| operation | callers | calls | calls/s | p50 | p95 | p99 | max |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const id of made) await workflows.call('deleteWorkflow', { id }, meta).catch(() => undefined);
  workflows.close();
  versions.close();
  if (service.exitCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  await dropDatabase(admin, database);
}
