// Finds import cycles among the relative imports of services/*/src/**/*.ts; checked in CI by
// import-cycles.test.ts (unit project), which names every cycle it finds.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, type-only included:
// a type import is still an arrow a reader has to follow.
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function serviceSourceFiles(root = repoRoot): string[] {
  const services = join(root, 'services');
  const files: string[] = [];
  for (const name of readdirSync(services)) {
    const src = join(services, name, 'src');
    if (existsSync(src)) walk(src, files);
  }
  return files;
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Map of file → files it imports (relative imports only, resolved to .ts). */
export type ImportGraph = Map<string, string[]>;

export function importGraph(files: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT_RE)) {
      const target = resolveImport(file, match[1]!);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Tarjan's strongly connected components.
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return cycles;
}
