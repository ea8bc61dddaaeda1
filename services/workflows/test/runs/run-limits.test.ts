import { describe, expect, it } from 'vitest';
import { OutputNotStorableError, type RecordedNode } from '../../src/domain/runs/engine/contract.js';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { DEFAULT_RUN_LIMITS, type RunLimits } from '../../src/domain/runs/engine/limits.js';
import { renderText } from '../../src/domain/runs/engine/variables.js';
import { definition, edge, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { setup, signal } from '../support/probe-node.js';

// What one run may hold (docs/security.md "Workflow runs: what one run may hold"): sizes, and how
// often a node in flight is started again after its worker stopped.

const limited = (limits: Partial<RunLimits>) => ({ ...DEFAULT_RUN_LIMITS, ...limits });

const row = (
  nodeId: string,
  position: number,
  status: RecordedNode['status'],
  attempts = 1,
): RecordedNode => ({
  nodeId,
  nodeType: nodeId === 's' ? 'start' : 'probe',
  position,
  status,
  outputs: status === 'success' ? {} : null,
  branch: null,
  tokens: 0,
  attempts,
});

function amplifier() {
  return definition(
    [
      node('s', 'start', { inputs: [{ name: 'x', type: 'string', required: true }] }),
      node('t1', 'template', { template: '{{inputs.x}}'.repeat(200) }),
      node('t2', 'template', { template: '{{t1.text}}'.repeat(200) }),
      node('e', 'end', { outputs: [{ name: 'out', value: '{{t2.text}}' }] }),
    ],
    [edge('s', 't1'), edge('t1', 't2'), edge('t2', 'e')],
  );
}

describe('run limits: sizes', () => {
  it('1 KiB × 200 × 200 fails the second template output_too_large (value) before building 39 MiB', async () => {
    const { plan, modules } = setup(amplifier());
    const journal = new MemoryJournal();
    const outcome = await executeRun({
      plan,
      run: runContext({ inputs: { x: 'x'.repeat(1024) } }),
      journal,
      modules,
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        code: 1002,
        node_id: 't2',
        data: { reason: 'output_too_large', scope: 'value', limit: DEFAULT_RUN_LIMITS.maxValueBytes },
      },
    });
    expect(journal.statuses()).toEqual({ s: 'success', t1: 'success', t2: 'failed' });
    expect(journal.outcomes.get('t2')?.outputs).toEqual({});
  });

  it('renderText stops at the limit: what it would build is never held', () => {
    const variables = { inputs: { x: 'y'.repeat(1000) } };
    expect(() => renderText('{{inputs.x}}'.repeat(50), variables, { maxValueBytes: 10_000 })).toThrow(
      /limit of 10000 bytes/,
    );
    expect(renderText('{{inputs.x}}'.repeat(10), variables, { maxValueBytes: 10_000 })).toHaveLength(10_000);
  });

  it("an end node naming one large value many times passes the node's output bound", async () => {
    const outputs = Array.from({ length: 5 }, (_, i) => ({ name: `o${i}`, value: '{{inputs.big}}' }));
    const { plan, modules } = setup(
      definition([node('s', 'start'), node('e', 'end', { outputs })], [edge('s', 'e')]),
    );
    const outcome = await executeRun({
      plan,
      run: runContext({ inputs: { big: 'z'.repeat(3000) }, limits: limited({ maxNodeOutputBytes: 10_000 }) }),
      journal: new MemoryJournal(),
      modules,
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { node_id: 'e', data: { reason: 'output_too_large', scope: 'node_output', limit: 10_000 } },
    });
  });

  it('the run bound counts inputs and every node: the node that passes it fails', async () => {
    const { plan, modules } = setup(
      definition(
        [
          node('s', 'start'),
          node('a', 'template', { template: '{{inputs.x}}{{inputs.x}}' }),
          node('b', 'template', { template: '{{a.text}}' }),
          node('e', 'end'),
        ],
        [edge('s', 'a'), edge('a', 'b'), edge('b', 'e')],
      ),
    );
    const outcome = await executeRun({
      plan,
      // inputs ~1 KB, start's outputs ~1 KB, a ~2 KB, b ~2 KB: b passes 5,500 bytes.
      run: runContext({ inputs: { x: 'q'.repeat(1000) }, limits: limited({ maxRunBytes: 5_500 }) }),
      journal: new MemoryJournal(),
      modules,
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { node_id: 'b', data: { reason: 'output_too_large', scope: 'run', limit: 5_500 } },
    });
  });

  it('streamed text past the node bound stops the node at once', async () => {
    const chunks = Array.from({ length: 20 }, () => 'c'.repeat(100));
    const { plan, modules } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe', { chunks }), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'e')],
      ),
    );
    const journal = new MemoryJournal();
    const outcome = await executeRun({
      plan,
      run: runContext({ limits: limited({ maxNodeOutputBytes: 1024 }) }),
      journal,
      modules,
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { node_id: 'a', data: { reason: 'output_too_large', scope: 'node_output' } },
    });
    expect(journal.events.filter((event) => event.type === 'text_chunk')).toHaveLength(10);
  });
});

/** A journal whose store refuses the first final row as data (Postgres 22P05 for a NUL). */
class RefusingJournal extends MemoryJournal {
  refused = 0;
  override async nodeFinished(finished: Parameters<MemoryJournal['nodeFinished']>[0]): Promise<void> {
    if (finished.nodeId === 'a' && this.refused === 0) {
      this.refused += 1;
      throw new OutputNotStorableError('unsupported Unicode escape sequence (SQLSTATE 22P05)');
    }
    return super.nodeFinished(finished);
  }
}

describe('run limits: what the journal refuses, and resumes', () => {
  it('a node whose outputs the journal refuses as data fails output_not_storable; the run ends', async () => {
    const { plan, modules, calls } = setup(
      definition(
        [node('s', 'start'), node('a', 'probe'), node('e', 'end')],
        [edge('s', 'a'), edge('a', 'e')],
      ),
    );
    const journal = new RefusingJournal();
    const outcome = await executeRun({ plan, run: runContext(), journal, modules, signal: signal() });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 1002, node_id: 'a', data: { reason: 'output_not_storable' } },
    });
    expect(journal.statuses()).toEqual({ s: 'success', a: 'failed' });
    expect(calls).toHaveLength(1);
  });

  it('a node in flight is started again up to maxNodeResumes times, then the run fails with the reason', async () => {
    const defn = definition(
      [node('s', 'start'), node('a', 'probe'), node('e', 'end')],
      [edge('s', 'a'), edge('a', 'e')],
    );
    // Started 3 times (the first run + 2 resumes): a third resume is allowed.
    const third = setup(defn);
    const allowed = new MemoryJournal('run-r', [row('s', 0, 'success'), row('a', 1, 'running', 3)]);
    const resumed = await executeRun({ ...third, run: runContext(), journal: allowed, signal: signal() });
    expect(resumed.status).toBe('success');
    expect(third.calls).toHaveLength(1);
    // Started 4 times (the first run + 3 resumes): not started again.
    const fourth = setup(defn);
    const exhausted = new MemoryJournal('run-r', [row('s', 0, 'success'), row('a', 1, 'running', 4)]);
    const outcome = await executeRun({ ...fourth, run: runContext(), journal: exhausted, signal: signal() });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        code: 1002,
        node_id: 'a',
        data: { reason: 'node_resume_limit', attempts: 4, limit: DEFAULT_RUN_LIMITS.maxNodeResumes },
      },
    });
    expect(fourth.calls).toEqual([]);
    expect(exhausted.statuses()).toEqual({ s: 'success', a: 'failed' });
  });
});
