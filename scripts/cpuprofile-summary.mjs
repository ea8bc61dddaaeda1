#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof) as text: the top frames by self time and by
// inclusive time, and self time per file (package). Kept small enough to commit beside the docs.
//   node scripts/cpuprofile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuprofile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Self time per node from the sample timeline (microseconds).
const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/.*\/(services|packages|bench)\//, '$1/');
const frameName = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
};
const fileName = (node) => {
  const url = node.callFrame.url;
  if (!url) return node.callFrame.functionName || '(native)';
  const short = shortUrl(url);
  return short.startsWith('node:') ? short : short.split('/').slice(0, 2).join('/');
};

// The package (or workspace package) a frame belongs to, for the inclusive view by package.
const packageOf = (url) => {
  const dependency = url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1];
  const workspace = url.match(/\/(services|packages)\/([^/]+)\//);
  return workspace ? `${workspace[1]}/${workspace[2]}` : undefined;
};
const inclusiveByPackage = new Map();

const selfByFrame = new Map();
const selfByFile = new Map();
const inclusiveByFrame = new Map();
for (const [id, us] of selfUs) {
  const node = nodes.get(id);
  const name = frameName(node);
  selfByFrame.set(name, (selfByFrame.get(name) ?? 0) + us);
  selfByFile.set(fileName(node), (selfByFile.get(fileName(node)) ?? 0) + us);
  const packages = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const name = packageOf(nodes.get(cur).callFrame.url);
    if (name) packages.add(name);
  }
  for (const name of packages) inclusiveByPackage.set(name, (inclusiveByPackage.get(name) ?? 0) + us);
  // Inclusive: count each frame name once per stack (recursion does not double count).
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const frame = frameName(nodes.get(cur));
    if (seen.has(frame)) continue;
    seen.add(frame);
    inclusiveByFrame.set(frame, (inclusiveByFrame.get(frame) ?? 0) + us);
  }
}
const idleUs = selfByFrame.get('(idle)') ?? 0;
const busyUs = totalUs - idleUs;
const pct = (us) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
const list = (title, map) => {
  console.log(`\n## ${title} (share of busy time)`);
  [...map]
    .filter(([name]) => name !== '(idle)' && name !== '(root)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, us]) => console.log(`${ms(us)} ${pct(us)}  ${name}`));
};
console.log(`# ${file.split('/').pop()}`);
console.log(`total ${ms(totalUs)}, idle ${ms(idleUs)}, busy ${ms(busyUs)}`);
list('self time by file / package', selfByFile);
list('inclusive time by package (time with one of its frames on the stack)', inclusiveByPackage);
list('top frames by self time', selfByFrame);
list('top frames by inclusive time', inclusiveByFrame);
