import { describe, expect, it } from 'vitest';
import { WorkerDrainingError } from '../../src/domain/runs/engine/contract.js';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { definition, edge, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { setup, signal, whenNodeStarts } from '../support/probe-node.js';

/** A drain that begins as the probe node `a` starts, so while it is in flight (it waits 50 ms). */
function drainDuringFirstNode(modules: Parameters<typeof whenNodeStarts>[0]): AbortSignal {
  const drain = new AbortController();
  whenNodeStarts(modules, 'a', () => drain.abort(new WorkerDrainingError()));
  return drain.signal;
}

describe('executeRun: a draining worker (docs/workflows.md "Drain on shutdown")', () => {
  it('finishes the node in flight, then stops before the next node that calls out', async () => {
    const { plan, modules, calls } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe', { wait_ms: 50 }), node('b', 'probe'), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'b'), edge('b', 'e')],
      ),
    );
    const journal = new MemoryJournal('run-d');
    const run = executeRun({
      plan,
      run: runContext({ runId: 'run-d' }),
      journal,
      modules,
      signal: signal(),
      drain: drainDuringFirstNode(modules),
    });
    await expect(run).rejects.toBeInstanceOf(WorkerDrainingError);
    expect(calls.map((call) => call.nodeId)).toEqual(['a']);
    expect(journal.statuses()).toMatchObject({ s: 'success', a: 'success' });
    expect(journal.started()).not.toContain('b');
  });

  it('a run with only instant nodes left ends on the draining worker', async () => {
    const { plan, modules, calls } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe', { wait_ms: 50 }), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'e')],
      ),
    );
    const outcome = await executeRun({
      plan,
      run: runContext({ runId: 'run-i' }),
      journal: new MemoryJournal('run-i'),
      modules,
      signal: signal(),
      drain: drainDuringFirstNode(modules),
    });
    expect(calls.map((call) => call.nodeId)).toEqual(['a']);
    expect(outcome.status).toBe('success');
  });
});
