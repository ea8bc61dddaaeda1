import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, repoRoot, serviceSourceFiles, type ImportGraph } from './import-graph.js';
import { EXCEPTIONS, layerOf, MAY_IMPORT, unusedExceptions, wrongWayImports } from './layer-rules.js';

const src = (service: string, path: string) => join('/repo', 'services', service, 'src', path);

/** A small service whose files import the way a real one does, plus `extra` imports. */
function syntheticGraph(extra: [string, string][] = []): ImportGraph {
  const edges: [string, string][] = [
    ['demo-service.ts', 'grpc/demo-grpc.ts'],
    ['demo-service.ts', 'data/demo-repository.ts'],
    ['grpc/demo-grpc.ts', 'domain/demo/create-demo.ts'],
    ['events/demo-consumer.ts', 'domain/demo/create-demo.ts'],
    ['domain/demo/create-demo.ts', 'domain/demo/demo-port.ts'],
    ['domain/demo/create-demo.ts', 'deps.ts'],
    ['data/demo-repository.ts', 'domain/demo/demo-port.ts'],
    ['adapters/demo-client.ts', 'domain/demo/demo-port.ts'],
    ...extra,
  ];
  const graph: ImportGraph = new Map();
  for (const [from, to] of edges) {
    graph.set(src('demo', from), [...(graph.get(src('demo', from)) ?? []), src('demo', to)]);
  }
  return graph;
}

describe('import direction under services/*/src', () => {
  it('files get the layer of their folder; a domain file named *-port.ts is a port', () => {
    expect(layerOf('demo-service.ts')).toBe('root');
    expect(layerOf('runs-area.ts')).toBe('root');
    expect(layerOf('deps.ts')).toBe('shared');
    expect(layerOf('domain/runs/run-ports.ts')).toBe('port');
    expect(layerOf('domain/runs/engine/contract.ts')).toBe('port');
    expect(layerOf('domain/runs/start-run.ts')).toBe('domain');
    expect(layerOf('sandbox-worker/protocol.ts')).toBe('other');
  });

  it('the domain imports no entry point nor adapter; data and adapters import only ports', () => {
    expect(MAY_IMPORT.domain).not.toContain('grpc');
    expect(MAY_IMPORT.domain).not.toContain('events');
    expect(MAY_IMPORT.domain).not.toContain('adapters');
    expect(MAY_IMPORT.data).not.toContain('domain');
    expect(MAY_IMPORT.adapters).not.toContain('domain');
    for (const exception of EXCEPTIONS) expect(exception.reason.length).toBeGreaterThan(20);
  });

  it('accepts a graph that points one way', () => {
    expect(wrongWayImports(syntheticGraph(), '/repo', [])).toEqual([]);
  });

  it('names each wrong-way import (file → file), and an exception lets one pass', () => {
    const graph = syntheticGraph([
      ['domain/demo/create-demo.ts', 'events/demo-consumer.ts'],
      ['data/demo-repository.ts', 'domain/demo/create-demo.ts'],
      ['adapters/demo-client.ts', 'grpc/demo-grpc.ts'],
    ]);
    expect(wrongWayImports(graph, '/repo', [])).toEqual([
      {
        from: 'demo/domain/demo/create-demo.ts',
        to: 'demo/events/demo-consumer.ts',
        fromLayer: 'domain',
        toLayer: 'events',
      },
      {
        from: 'demo/data/demo-repository.ts',
        to: 'demo/domain/demo/create-demo.ts',
        fromLayer: 'data',
        toLayer: 'domain',
      },
      {
        from: 'demo/adapters/demo-client.ts',
        to: 'demo/grpc/demo-grpc.ts',
        fromLayer: 'adapters',
        toLayer: 'grpc',
      },
    ]);
    const excused = [{ from: 'demo/data/**', to: 'demo/domain/**', reason: 'a reason long enough to read' }];
    expect(wrongWayImports(graph, '/repo', excused).map((found) => found.from)).toEqual([
      'demo/domain/demo/create-demo.ts',
      'demo/adapters/demo-client.ts',
    ]);
    const stale = { from: 'demo/grpc/**', to: 'demo/data/**', reason: 'no import of the graph needs this' };
    expect(unusedExceptions(graph, '/repo', [...excused, stale])).toEqual([stale]);
  });

  it('every import under services/*/src points the way of the table (or is a listed exception)', () => {
    const files = serviceSourceFiles();
    const wrong = wrongWayImports(importGraph(files), repoRoot).map(
      (found) => `${found.from} (${found.fromLayer}) → ${found.to} (${found.toLayer})`,
    );
    expect(wrong).toEqual([]);
  });

  it('every listed exception is still needed by some import', () => {
    const stale = unusedExceptions(importGraph(serviceSourceFiles()), repoRoot).map(
      (e) => `${e.from} → ${e.to}`,
    );
    expect(stale).toEqual([]);
  });
});
