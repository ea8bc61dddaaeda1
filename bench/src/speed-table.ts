// The table of issue 21 ("speed where users feel it"), measured in one run: runs the four
// benchmarks one after the other on the running platform and prints each measure beside the
// figure the issue was filed with and the goal.
//
//   ./platform up && source deploy/local/env.sh
//   node bench/dist/speed-table.js [--runs 300] [--clients 32]
//
// The benchmarks it runs (each prints its own full tables first, kept in the output):
//   gateway-vs-grpc.js --rate 500 --duration 10 --warmup 3
//   identity-auth.js   --rate 200 --login-rate 5 --duration 10
//   apikey-verify.js   --rate 300 --duration 10
//   workflow-runs.js   --runs <runs> --clients <clients> --sse 10 --kill false
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    clients: { type: 'string', default: '32' },
  },
});

/** Runs one built benchmark, echoing its output, and returns what it printed. */
function runBench(script: string, args: string[]): Promise<string> {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  console.log(`\n$ node bench/dist/${script} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

/** The cells of the markdown row whose first cells are `labels` (numbers parsed where they are). */
function row(output: string, ...labels: string[]): string[] {
  for (const line of output.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (labels.every((label, i) => cells[i] === label)) return cells;
  }
  throw new Error(`no row ${labels.join(' | ')} in the output`);
}

/** The number captured by `pattern`'s first group in the output. */
function captured(output: string, pattern: RegExp): number {
  const match = pattern.exec(output);
  if (!match) throw new Error(`${String(pattern)} not in the output`);
  return Number(match[1]);
}

const num = (cell: string | undefined) => Number(cell);
/** "p50 / p99" cells. */
const pair = (cell: string | undefined) => (cell ?? '').split('/').map((part) => Number(part.trim()));
const f = (n: number, digits = 2) => n.toFixed(digits);

const probe = await runBench('gateway-vs-grpc.js', ['--rate', '500', '--duration', '10', '--warmup', '3']);
const identity = await runBench('identity-auth.js', [
  '--rate',
  '200',
  '--login-rate',
  '5',
  '--duration',
  '10',
]);
const apikeys = await runBench('apikey-verify.js', ['--rate', '300', '--duration', '10']);
const runs = await runBench('workflow-runs.js', [
  '--runs',
  values.runs!,
  '--clients',
  values.clients!,
  '--sse',
  '10',
  '--kill',
  'false',
]);

const direct = row(probe, 'direct gRPC');
const viaGateway = row(probe, 'gateway (HTTP → gRPC)');
const me = row(identity, 'GET /users/me through the gateway');
const currentUser = row(identity, 'GetCurrentUser direct gRPC');
const idleTrivial = pair(row(runs, 'trivial', '30')[2]);
const runsRow = (kind: string, workers: string) => row(runs, kind, workers);
const trivial1 = runsRow('trivial', '1');
const trivial2 = runsRow('trivial', '2');
const five1 = runsRow('five_nodes_llm', '1');
const five2 = runsRow('five_nodes_llm', '2');

const measures: Array<[string, string, string, string]> = [
  [
    'gateway vs direct gRPC, probe RPC at 500 req/s',
    '+0.56 ms p50, p99 21.6 ms vs 11.2 ms',
    `+${f(num(viaGateway[3]) - num(direct[3]))} ms p50, p99 ${f(num(viaGateway[4]), 1)} ms vs ${f(num(direct[4]), 1)} ms`,
    '≤ +0.3 ms p50, p99 ≤ direct + 2 ms',
  ],
  [
    'authed `GET /users/me` vs direct `GetCurrentUser`, 200 req/s',
    '+2.6 ms p50 (4.90 vs 2.28), p99 41 ms vs 9 ms',
    `+${f(num(me[3]) - num(currentUser[3]))} ms p50 (${f(num(me[3]))} vs ${f(num(currentUser[3]))}), p99 ${f(num(me[4]), 1)} ms vs ${f(num(currentUser[4]), 1)} ms`,
    '≤ +0.5 ms p50, p99 ≤ direct + 3 ms',
  ],
  [
    'gateway closed loop (autocannon, 16 connections)',
    '1,751 req/s probe route; JWT route 2,658, warm key 2,997',
    `${captured(probe, /gateway closed-loop maximum[^:]*: (\d+) req\/s/)} req/s probe route; JWT route ${captured(apikeys, /closed loop[^:]*: JWT (\d+) req\/s/)}, warm key ${captured(apikeys, /; warm key (\d+) req\/s/)}`,
    '≥ 4,000 req/s on the JWT route',
  ],
  [
    `trivial workflow runs (start → end), ${values.runs} runs, ${values.clients} clients`,
    '68 runs/s; idle `wait: true` answer 31.7 ms p50, queue → start 8 ms',
    `${trivial1[3]} runs/s; idle answer ${f(idleTrivial[0]!, 1)} ms p50, queue → start ${pair(row(runs, 'trivial', '30')[3])[0]} ms`,
    '≥ 220 runs/s; idle answer ≤ 12 ms p50',
  ],
  [
    'five-node runs with a streamed LLM (fake)',
    '25 runs/s, queue → start p99 9.6 s under the burst',
    `${five1[3]} runs/s, queue → start p99 ${f(pair(five1[5])[1]! / 1000, 1)} s under the burst`,
    '≥ 100 runs/s',
  ],
  [
    'second worker on the same machine',
    'adds nothing (50 vs 68 runs/s trivial)',
    `trivial ${trivial2[3]} vs ${trivial1[3]} runs/s, five-node ${five2[3]} vs ${five1[3]}`,
    'never slower than one worker',
  ],
];

console.log('\n## Issue 21: the table, measured in this run\n');
console.log('| measure | when the issue was filed | now | goal |');
console.log('|---|---|---|---|');
for (const [measure, before, now, goal] of measures)
  console.log(`| ${measure} | ${before} | ${now} | ${goal} |`);
