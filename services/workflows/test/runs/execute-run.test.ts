import { describe, expect, it } from 'vitest';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { definition, edge, linear, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { setup, signal } from '../support/probe-node.js';

describe('executeRun', () => {
  it('runs start → template → end and returns the end outputs', async () => {
    const { plan, modules } = setup(linear());
    const journal = new MemoryJournal();
    const outcome = await executeRun({
      plan,
      run: runContext({ inputs: { name: 'Ada' } }),
      journal,
      modules,
      signal: signal(),
    });
    expect(outcome).toEqual({ status: 'success', outputs: { greeting: 'Hello Ada' }, totalTokens: 0 });
    expect(journal.started()).toEqual(['start', 'greet', 'end']);
    expect(journal.statuses()).toEqual({ start: 'success', greet: 'success', end: 'success' });
  });

  it('skips the untaken branch and what only it feeds, and runs a merge node fed by the taken one', async () => {
    const defn = definition(
      [
        node('s', 'start', { inputs: [{ name: 'n', type: 'number', required: true }] }),
        node('if', 'condition', { conditions: [{ left: '{{inputs.n}}', operator: 'gt', right: '10' }] }),
        node('big', 'template', { template: 'big {{inputs.n}}' }),
        node('big2', 'probe'),
        node('small', 'template', { template: 'small {{inputs.n}}' }),
        node('e', 'end', { outputs: [{ name: 'text', value: '{{big.text}}{{small.text}}' }] }),
      ],
      [
        edge('s', 'if'),
        edge('if', 'big', 'true'),
        edge('big', 'big2'),
        edge('if', 'small', 'false'),
        edge('big2', 'e'),
        edge('small', 'e'),
      ],
    );
    const { plan, modules, calls } = setup(defn);
    const journal = new MemoryJournal();
    const outcome = await executeRun({
      plan,
      run: runContext({ inputs: { n: 3 } }),
      journal,
      modules,
      signal: signal(),
    });
    expect(outcome).toMatchObject({ status: 'success', outputs: { text: 'small 3' } });
    expect(journal.statuses()).toEqual({
      s: 'success',
      if: 'success',
      big: 'skipped',
      big2: 'skipped',
      small: 'success',
      e: 'success',
    });
    expect(calls).toEqual([]);

    const again = new MemoryJournal();
    expect(
      await executeRun({
        plan,
        run: runContext({ inputs: { n: 30 } }),
        journal: again,
        modules,
        signal: signal(),
      }),
    ).toMatchObject({
      status: 'success',
      outputs: { text: 'big 30' },
    });
    expect(again.statuses()).toMatchObject({ big: 'success', big2: 'success', small: 'skipped' });
  });

  it('the first failed node ends the run failed with its code, message and node id', async () => {
    const { plan, modules, calls } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe', { throw: 'exploded' }), node('b', 'probe'), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'b'), edge('b', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const outcome = await executeRun({ plan, run: runContext(), journal, modules, signal: signal() });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 1003, message: 'exploded', node_id: 'a' },
    });
    expect(calls.map((c) => c.nodeId)).toEqual(['a']);
    expect(journal.statuses()).toEqual({ s: 'success', a: 'failed' });
  });

  it('streams text chunks in order and sums tokens', async () => {
    const { plan, modules } = setup(
      definition(
        [
          node('s', 'start'),
          node('a', 'probe', { chunks: ['He', 'llo'], tokens: 4 }),
          node('b', 'probe', { tokens: 6 }),
          node('e', 'end'),
        ],
        [edge('s', 'a'), edge('a', 'b'), edge('b', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const outcome = await executeRun({ plan, run: runContext(), journal, modules, signal: signal() });
    expect(outcome.totalTokens).toBe(10);
    expect(journal.events.filter((e) => e.type === 'text_chunk')).toEqual([
      { type: 'text_chunk', nodeId: 'a', chunk: 'He' },
      { type: 'text_chunk', nodeId: 'a', chunk: 'llo' },
    ]);
  });
});
