import { describe, expect, it } from 'vitest';
import { withSpan, currentTraceIds, injectTraceContext } from '@platform/telemetry';
import { captureSpans } from '@platform/testing';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { runParentContext } from '../../src/domain/runs/run-trace.js';
import { definition, edge, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { setup, signal } from '../support/probe-node.js';

const capture = captureSpans();
const spans = { finished: () => capture.spans(), reset: () => capture.reset() };

const traceparentOfActive = () => {
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  return carrier.traceparent!;
};

describe('run spans', () => {
  it('one `workflow.node <type>` span per executed node, child of the active span, with its outcome', async () => {
    spans.reset();
    const { plan, modules } = setup(
      definition(
        [node('s', 'start'), node('p', 'probe', { throw: 'boom' }), node('e', 'end')],
        [edge('s', 'p'), edge('p', 'e')],
      ),
    );
    const outcome = await withSpan('workflow.run', {}, () =>
      executeRun({ plan, run: runContext({}), journal: new MemoryJournal(), modules, signal: signal() }),
    );
    expect(outcome.status).toBe('failed');
    const finished = spans.finished();
    const run = finished.find((s) => s.name === 'workflow.run')!;
    const nodes = finished.filter((s) => s.name.startsWith('workflow.node'));
    // `e` never ran (the failed probe ended the run): no span for it.
    expect(
      nodes.map((s) => [s.name, s.attributes['workflow.node.id'], s.attributes['workflow.node.outcome']]),
    ).toEqual([
      ['workflow.node start', 's', 'success'],
      ['workflow.node probe', 'p', 'failed'],
    ]);
    for (const span of nodes) expect(span.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(nodes[1]!.status.code).toBe(2);
  });

  it("a run's parent: the active span when it is in the run's trace, else the stored StartRun context", async () => {
    let stored = '';
    let sameTrace: string | undefined;
    await withSpan('StartRun', {}, async () => {
      stored = traceparentOfActive();
      await withSpan('queue.workflow process', {}, async () => {
        // The task of the run's own trace: its consumer span is the closer parent.
        await withSpan('workflow.run', { parent: runParentContext(stored) }, async () => {
          sameTrace = currentTraceIds()?.traceId;
        });
      });
    });
    const consumer = spans.finished().find((s) => s.name === 'queue.workflow process')!;
    const nested = spans
      .finished()
      .filter((s) => s.name === 'workflow.run')
      .at(-1)!;
    expect(nested.parentSpanContext?.spanId).toBe(consumer.spanContext().spanId);
    expect(sameTrace).toBe(stored.split('-')[1]);

    // Claimed while another trace is active (a poll, another run's end): the stored context wins.
    await withSpan('another run', {}, async () => {
      await withSpan('workflow.run', { parent: runParentContext(stored) }, async () => undefined);
    });
    const adopted = spans
      .finished()
      .filter((s) => s.name === 'workflow.run')
      .at(-1)!;
    expect(adopted.spanContext().traceId).toBe(stored.split('-')[1]);
    expect(adopted.parentSpanContext?.spanId).toBe(stored.split('-')[2]);

    // No stored context (an older run): a new trace.
    await withSpan('another run', {}, async () => {
      await withSpan('workflow.run', { parent: runParentContext(null) }, async () => undefined);
    });
    expect(spans.finished().at(-2)!.parentSpanContext).toBeUndefined();
  });
});
