// Issue 24 (the sandbox foundation): what one trivial code run costs in @platform/sandbox, with a
// new isolate per task versus a pooled isolate (a fresh context per task either way), measured in
// this process with no stack. Prints p50/p99 latency and sequential runs per second per strategy.
//
//   pnpm run build && node --no-node-snapshot bench/dist/sandbox.js [--runs 2000] [--warmup 200]
import { parseArgs } from 'node:util';
import { createSandbox, nodeSnapshotDisabled, type IsolateReuse } from '@platform/sandbox';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const code = 'function main(inputs) { return { sum: inputs.a + inputs.b, list: [1, 2] }; }';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function measure(reuse: IsolateReuse) {
  const sandbox = createSandbox({ reuse });
  for (let i = 0; i < warmup; i++) await sandbox.runCode({ code, inputs: { a: i, b: 1 } });
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = await sandbox.runCode({ code, inputs: { a: i, b: 1 } });
    latencies.push(performance.now() - t0);
    if (!result.ok) throw new Error(`${reuse}: ${result.reason} ${result.message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  sandbox.close();
  latencies.sort((a, b) => a - b);
  return { reuse, p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: runs / seconds };
}

if (!nodeSnapshotDisabled()) console.warn('warning: run node with --no-node-snapshot (isolated-vm needs it)');
console.log(`trivial main, ${runs} sequential runs after ${warmup} warm-up runs, one process`);
console.log('| isolates | p50 (ms) | p99 (ms) | runs/s |');
console.log('|---|---|---|---|');
for (const reuse of ['per-task', 'pooled', 'per-task', 'pooled'] as const) {
  const r = await measure(reuse);
  console.log(`| ${r.reuse} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.perSecond.toFixed(0)} |`);
}
