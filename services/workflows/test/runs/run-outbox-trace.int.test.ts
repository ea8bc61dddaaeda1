import { ensureTopics } from '@platform/kafka';
import { captureSpans, SpanKind, waitUntil, type SpanCapture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear } from '../support/definitions.js';
import { startWorkflowsHarness, type WorkflowsHarness } from '../support/harness.js';

// start_workflow_run writes a queued run's `workflow.run` task into the outbox in its own SQL: the
// task must carry the trace of the request that started the run (docs/operations.md "Traces").
let harness: WorkflowsHarness;
let capture: SpanCapture;

beforeAll(async () => {
  capture = captureSpans();
  // No run workers here: the run stays queued, so its task goes through the outbox and Kafka.
  harness = await startWorkflowsHarness();
}, 120_000);

afterAll(async () => {
  capture?.stop();
  await harness?.stop();
});

describe('a queued run through the outbox', () => {
  it("publishes its workflow.run task under a producer span in the starting request's trace", async () => {
    // Without run workers nobody creates the queue's topic; the relay needs it to publish.
    const topic = `${harness.config.QUEUE_TOPIC_PREFIX}queue.workflow`;
    await ensureTopics(harness.workflows.dependencies.kafka, [topic]);
    const owner = await harness.createUser({ name: 'tracer' });
    const created = await harness.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'traced', definition: linear() },
    });
    const id = String(created.body.data.id);
    await harness.request('POST', `/workflows/${id}/publish`, {
      token: owner.token,
      json: { presentation_mode: 'simple' },
    });
    const started = await harness.request('POST', `/workflows/${id}/run`, {
      token: owner.token,
      json: { inputs: { name: 'Kay' } },
    });
    expect(started.body.data.status).toBe('queued');

    const producer = await waitUntil(
      () => capture.spans().find((s) => s.kind === SpanKind.PRODUCER && s.name === `${topic} publish`),
      20_000,
      'the task was not published under a producer span',
    );
    const request = capture
      .spans()
      .find((s) => s.kind === SpanKind.SERVER && /^POST .*workflows\/:\w+\/run$/.test(s.name));
    expect(request, 'no gateway span for the run request').toBeDefined();
    expect(producer.spanContext().traceId).toBe(request!.spanContext().traceId);
    // Its parent is the span that wrote the row: workflows' server span of StartRun.
    const parent = capture.spans().find((s) => s.spanContext().spanId === capture.parentOf(producer));
    expect(parent?.name).toMatch(/WorkflowRunsService\/StartRun$/);
    expect(parent?.kind).toBe(SpanKind.SERVER);
    expect(parent?.spanContext().traceId).toBe(request!.spanContext().traceId);
  });
});
