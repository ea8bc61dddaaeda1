// Summarises a V8 .cpuprofile (node --cpu-prof): the top functions by self time and by inclusive
// time, and self time per file (node_modules folded by package), as a small text report.
//   node bench/scripts/summarise-cpuprofile.mjs <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 25);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Self time per node from the samples and their time deltas (microseconds).
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (cf) => {
  const url = cf.url || '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const m = url.match(/(services|packages)\/[^/]+\/.*$/);
  return m ? m[0] : url.replace(/^file:\/\//, '');
};
const key = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;

const bySelf = new Map();
const byFile = new Map();
const inclusive = new Map();
for (const [id, us] of self) {
  const cf = nodes.get(id).callFrame;
  bySelf.set(key(cf), (bySelf.get(key(cf)) ?? 0) + us);
  byFile.set(where(cf), (byFile.get(where(cf)) ?? 0) + us);
  // Inclusive: every distinct function on the stack gets the sample once.
  const seen = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const k = key(nodes.get(n).callFrame);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
const pct = (us) => `${((100 * us) / total).toFixed(1)}%`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(us).padStart(6)} ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`profile ${process.argv[2].split('/').at(-1)}: ${(total / 1e6).toFixed(1)} s sampled`);
print('top by self time', bySelf);
print('top by inclusive time', inclusive);
print('self time by file / package', byFile);
