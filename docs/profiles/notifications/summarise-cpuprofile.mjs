/* eslint-disable no-console -- a command-line tool: its output is the summary */
// node summarise.mjs <file.cpuprofile> [top]  → top frames by self and inclusive time (ms, %)
import { readFileSync } from 'node:fs';
const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 15);
const p = JSON.parse(readFileSync(file, 'utf8'));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++)
  dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n) => {
  const f = n.callFrame;
  const url = f.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/.*\/wt\/notify\//, '');
  return `${f.functionName || '(anonymous)'} ${url}${url ? ':' + (f.lineNumber + 1) : ''}`;
};
const self = new Map(),
  incl = new Map();
let total = 0,
  idle = 0;
for (const n of p.nodes) {
  const t = (dt.get(n.id) ?? 0) / 1000;
  if (!t) continue;
  total += t;
  const l = label(n);
  if (n.callFrame.functionName === '(idle)') idle += t;
  self.set(l, (self.get(l) ?? 0) + t);
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const k = label(byId.get(id));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
const busy = total - idle;
const print = (title, m) => {
  console.log(`## ${title} (busy ${busy.toFixed(0)} ms of ${total.toFixed(0)} ms sampled)`);
  for (const [k, v] of [...m]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${v.toFixed(0).padStart(7)} ms ${((v / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
};
print('self', self);
print('inclusive', incl);
// by file
const byFile = new Map();
for (const n of p.nodes) {
  const t = (dt.get(n.id) ?? 0) / 1000;
  if (!t || n.callFrame.functionName === '(idle)') continue;
  const url =
    n.callFrame.url.replace(/.*node_modules\/\.pnpm\/([^/]+)\/.*/, '$1').replace(/.*\/wt\/notify\//, '') ||
    n.callFrame.functionName;
  byFile.set(url, (byFile.get(url) ?? 0) + t);
}
print('self by file/package', byFile);
