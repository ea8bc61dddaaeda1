import { describe, expect, it } from 'vitest';
import { LeaseLostError, type RecordedNode } from '../../src/domain/runs/engine/contract.js';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { definition, edge, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { setup, signal, whenNodeStarts } from '../support/probe-node.js';

describe('executeRun: resume, time limits, lease', () => {
  it('resumes: finished nodes never run again, only the one in flight, with the same idempotency key', async () => {
    const defn = definition(
      [
        node('s', 'start'),
        node('a', 'probe', { tokens: 5 }),
        node('b', 'probe', { tokens: 7 }),
        node('c', 'probe', { tokens: 11 }),
        node('e', 'end', {
          outputs: [
            { name: 'a', value: '{{a.id}}' },
            { name: 'c', value: '{{c.seen.x}}' },
          ],
        }),
      ],
      [edge('s', 'a'), edge('a', 'b'), edge('b', 'c'), edge('c', 'e')],
    );
    const { plan, modules, calls } = setup(defn);
    const row = (
      nodeId: string,
      position: number,
      status: RecordedNode['status'],
      outputs: Record<string, unknown> | null,
      tokens = 0,
    ): RecordedNode => ({
      nodeId,
      nodeType: nodeId === 's' ? 'start' : 'probe',
      position,
      status,
      outputs,
      branch: null,
      tokens,
    });
    const journal = new MemoryJournal('run-9', [
      row('s', 0, 'success', { x: 'kept' }),
      row('a', 1, 'success', { id: 'a' }, 5),
      row('b', 2, 'running', null),
    ]);
    const outcome = await executeRun({
      plan,
      run: runContext({ runId: 'run-9', inputs: { x: 'ignored' } }),
      journal,
      modules,
      signal: signal(),
    });
    expect(calls).toEqual([
      { nodeId: 'b', key: 'run-9:b' },
      { nodeId: 'c', key: 'run-9:c' },
    ]);
    expect(journal.started()).toEqual(['b', 'c', 'e']);
    // The recorded start outputs feed later nodes (not the inputs passed again).
    expect(outcome).toEqual({ status: 'success', outputs: { a: 'a', c: 'kept' }, totalTokens: 23 });
  });

  it('a resumed run whose failed node was recorded ends failed without running anything', async () => {
    const { plan, modules, calls } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe'), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'e')],
      ),
    );
    const error = { code: 1002, message: 'boom', node_id: 'a' };
    const journal = new MemoryJournal('run-1', [
      {
        nodeId: 's',
        nodeType: 'start',
        position: 0,
        status: 'success',
        outputs: {},
        branch: null,
        tokens: 0,
      },
      {
        nodeId: 'a',
        nodeType: 'probe',
        position: 1,
        status: 'failed',
        outputs: {},
        branch: null,
        tokens: 2,
        error,
      },
    ]);
    expect(await executeRun({ plan, run: runContext(), journal, modules, signal: signal() })).toEqual({
      status: 'failed',
      error,
      totalTokens: 2,
    });
    expect(calls).toEqual([]);
    expect(journal.events).toEqual([]);
  });

  it('a node past its own time limit is `timeout` and fails the run, even when it ignores its signal', async () => {
    const { plan, modules } = setup(
      definition(
        [
          node('s', 'start'),
          node('slow', 'probe', { wait_ms: 5_000, timeout_ms: 50, ignore_signal: true }),
          node('e', 'end'),
        ],
        [edge('s', 'slow'), edge('slow', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const outcome = await executeRun({ plan, run: runContext(), journal, modules, signal: signal() });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { node_id: 'slow', data: { reason: 'node_timeout' } },
    });
    expect(journal.statuses()).toMatchObject({ slow: 'timeout' });
  });

  it('the run deadline ends the run `timeout`, during a node or before the next one', async () => {
    const { plan, modules } = setup(
      definition(
        [node('s', 'start'), node('slow', 'probe', { wait_ms: 5_000 }), node('e', 'end')],
        [edge('s', 'slow'), edge('slow', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const run = runContext({ deadline: new Date(Date.now() + 80) });
    const outcome = await executeRun({ plan, run, journal, modules, signal: signal() });
    expect(outcome).toMatchObject({
      status: 'timeout',
      error: { node_id: 'slow', data: { reason: 'run_timeout' } },
    });
    expect(journal.statuses()).toEqual({ s: 'success', slow: 'timeout' });

    const late = new MemoryJournal();
    const past = runContext({ deadline: new Date(Date.now() - 1) });
    expect(await executeRun({ plan, run: past, journal: late, modules, signal: signal() })).toMatchObject({
      status: 'timeout',
      error: { node_id: 's' },
    });
    expect(late.events).toEqual([]);
  });

  it('LeaseLostError propagates, from a journal write or from streamed text', async () => {
    const { plan, modules } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe', { chunks: ['x'] }), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'e')],
      ),
    );
    const lost = new MemoryJournal();
    lost.leaseLost = true;
    await expect(
      executeRun({ plan, run: runContext(), journal: lost, modules, signal: signal() }),
    ).rejects.toBeInstanceOf(LeaseLostError);

    const midway = new MemoryJournal();
    const text = midway.text.bind(midway);
    midway.text = async (nodeId, chunk) => {
      midway.leaseLost = true;
      return text(nodeId, chunk);
    };
    await expect(
      executeRun({ plan, run: runContext(), journal: midway, modules, signal: signal() }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(midway.statuses()).toMatchObject({ a: 'running' });
  });

  it('a worker abort leaves the node in flight for the next worker', async () => {
    const { plan, modules } = setup(
      definition(
        [
          node('s', 'start'),
          node('slow', 'probe', { wait_ms: 5_000, ignore_signal: true }),
          node('e', 'end'),
        ],
        [edge('s', 'slow'), edge('slow', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const worker = new AbortController();
    whenNodeStarts(modules, 'slow', () => worker.abort(new Error('worker stopping')));
    await expect(
      executeRun({ plan, run: runContext(), journal, modules, signal: worker.signal }),
    ).rejects.toThrow('worker stopping');
    expect(journal.statuses()).toEqual({ s: 'success', slow: 'running' });
  });
});
