import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, repoRoot, serviceSourceFiles, type ImportGraph } from './import-graph.js';

describe('import cycles under services/*/src', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('no file under services/*/src takes part in an import cycle', () => {
    const files = serviceSourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const cycles = importCycles(importGraph(files)).map((cycle) =>
      cycle.map((file) => relative(repoRoot, file)),
    );
    expect(cycles).toEqual([]);
  });
});
