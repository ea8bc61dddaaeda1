import { createKafka, groupIsStable, workerGroup, type KafkaClient } from '@platform/kafka';
import {
  requester,
  stackEnv,
  startFakeOpenAi,
  startGatewayProcess,
  startIdentityProcess,
  startServiceProcess,
  startTraceBackend,
  openSse,
  uniqueName,
  waitUntil,
  type FakeOpenAi,
  type GatewayProcess,
  type IdentityProcess,
  type TraceSpan,
  type Requester,
  type ServiceProcess,
  type Jaeger,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, edge, node } from '../support/definitions.js';
import { testLogger } from '../support/harness.js';

// The trace proof: a run with an llm node started through the gateway is ONE trace in a
// real Jaeger, from the gateway's request span through StartRun, the `workflow.run` task's Kafka
// hop (outbox relay producer → worker consumer), the worker's run and node spans, the llm node's
// call to the models service and the model provider's HTTP call. The gateway, identity, models, the
// workflows API (no worker, so the run must cross Kafka) and a workflows worker are the built
// services as child processes (this process records no spans), exporting to the same Jaeger: the local stack's when JAEGER_QUERY_URL and OTEL_EXPORTER_OTLP_ENDPOINT are
// set, else one started for this file.
let backend: Jaeger;
let identity: IdentityProcess;
let models: ServiceProcess;
let api: ServiceProcess;
let worker: ServiceProcess;
let kafka: KafkaClient;
let gateway: GatewayProcess;
let request: Requester;
let fake: FakeOpenAi;
let workflowId: string;
let ownerToken: string;
let finishedRun: { id: string; streamUrl: string } | undefined;

async function ok(res: { body: { code: number; data: unknown } }, what: string) {
  if (res.body.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown>;
}

async function startProcesses(): Promise<void> {
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: backend.otlpEndpoint, OTEL_TRACES_SAMPLER_ARG: '1' };
  identity = await startIdentityProcess({ env: otel });
  models = await startServiceProcess('models', { env: { IDENTITY_GRPC_ADDR: identity.address, ...otel } });
  const prefix = `${uniqueName('wfq')}.`;
  const workflowsEnv = {
    IDENTITY_GRPC_ADDR: identity.address,
    MODELS_GRPC_ADDR: models.address,
    QUEUE_TOPIC_PREFIX: prefix,
    ...otel,
  };
  api = await startServiceProcess('workflows', { env: { ...workflowsEnv, RUN_WORKER_ENABLED: 'false' } });
  // Only the `workflow.run` task prompts this worker's claim (no poll within the test).
  worker = await startServiceProcess('workflows', {
    env: {
      ...workflowsEnv,
      DATABASE_URL: api.database.url,
      RUN_WORKER_ENABLED: 'true',
      RUN_CLAIM_POLL_MS: '60000',
    },
  });
  kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'run-trace-test', logger: testLogger });
  await waitUntil(
    async () => ((await groupIsStable(kafka, workerGroup('workflow', prefix), 1)) ? true : undefined),
    60_000,
    'the worker did not join the workflow queue group',
    250,
  );
  gateway = await startGatewayProcess({
    IDENTITY_GRPC_ADDR: identity.address,
    APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
    NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
    MODELS_GRPC_ADDR: models.address,
    WORKFLOWS_GRPC_ADDR: api.address,
    OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    ...otel,
  });
  request = requester(gateway.baseUrl);
}

beforeAll(async () => {
  backend = await startTraceBackend();
  fake = await startFakeOpenAi({
    apiKey: 'sk-trace',
    model: 'trace-chat',
    deltas: ['Hello', ' Oslo'],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
  await startProcesses();
  const admin = await identity.createUser({ superuser: true, name: 'traceadmin' });
  const owner = await identity.createUser({ name: 'traceowner' });
  ownerToken = owner.token;
  await ok(
    await request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { model_endpoint_allowlist: [fake.origin] },
    }),
    'settings',
  );
  const model = await ok(
    await request('POST', '/admin/models', {
      token: admin.token,
      json: {
        name: 'trace',
        provider: 'custom',
        model_id: 'trace-chat',
        model_type: 'chat',
        base_url: fake.baseUrl,
        api_key: 'sk-trace',
      },
    }),
    'model',
  );
  const team = await ok(
    await request('POST', '/teams', { token: ownerToken, json: { name: 'trace-team' } }),
    'team',
  );
  await ok(
    await request('POST', `/admin/teams/${String(team.id)}/models`, {
      token: admin.token,
      json: { model_id: model.id },
    }),
    'grant',
  );
  const created = await ok(
    await request('POST', '/workflows', {
      token: ownerToken,
      json: {
        name: 'traced',
        team_id: team.id,
        definition: definition(
          [
            node('start', 'start'),
            node('ask', 'llm', { model_id: model.id, prompt: 'Greet Oslo' }),
            node('end', 'end', { outputs: [{ name: 'answer', value: '{{ask.text}}' }] }),
          ],
          [edge('start', 'ask'), edge('ask', 'end')],
        ),
      },
    }),
    'workflow',
  );
  workflowId = String(created.id);
  await ok(
    await request('POST', `/workflows/${workflowId}/publish`, {
      token: ownerToken,
      json: { presentation_mode: 'simple' },
    }),
    'publish',
  );
}, 180_000);

afterAll(async () => {
  await gateway?.stop();
  await kafka?.disconnect();
  await Promise.all([worker, api].map((p) => p?.stop().catch(() => undefined)));
  await models?.stop();
  await identity?.stop();
  await fake?.close();
  await backend?.stop();
});

/** The chain of `span`'s ancestors (nearest first), by parent ids within the trace. */
function ancestors(span: TraceSpan, spans: TraceSpan[]): TraceSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: TraceSpan[] = [];
  for (
    let at = span.parentSpanId && byId.get(span.parentSpanId);
    at;
    at = at.parentSpanId && byId.get(at.parentSpanId)
  )
    chain.push(at);
  return chain;
}

const one = (spans: TraceSpan[], what: string, test: (s: TraceSpan) => boolean): TraceSpan => {
  const found = spans.filter(test);
  if (found.length !== 1) {
    const names = spans.map((s) => `${s.service}:${s.name}(${String(s.tags['span.kind'])})`).join(', ');
    throw new Error(`${found.length} spans for ${what} in the trace: ${names}`);
  }
  return found[0]!;
};

describe('a run through the gateway is one trace in Jaeger', () => {
  it('gateway → StartRun → Kafka hop → workflow.run → nodes → models → the model call', async () => {
    const started = await ok(
      await request('POST', `/workflows/${workflowId}/run`, { token: ownerToken, json: { wait: true } }),
      'run',
    );
    expect(started).toMatchObject({ status: 'success', outputs: { answer: 'Hello Oslo' } });
    const runId = String(started.run_id);
    finishedRun = { id: runId, streamUrl: String(started.stream_url) };

    // Spans reach Jaeger in batches (about a second per process): wait for the model call's.
    const spans = await waitUntil(
      async () => {
        const [traceId] = await backend.findTraceIds('workflows', 'workflow.run.id', runId);
        if (!traceId) return undefined;
        const all = await backend.traceSpans(traceId);
        const complete =
          all.some((s) => s.service === 'gateway' && s.tags['span.kind'] === 'server') &&
          all.some((s) => s.tags['outbound.purpose'] === 'llm') &&
          all.some((s) => s.name === 'workflow.node end');
        return complete ? all : undefined;
      },
      30_000,
      `no complete trace of run ${runId} in Jaeger`,
      250,
    );

    const gatewaySpan = one(
      spans,
      'the gateway request',
      (s) => s.service === 'gateway' && s.tags['span.kind'] === 'server',
    );
    expect(gatewaySpan.parentSpanId).toBeUndefined();
    const startRun = one(
      spans,
      'StartRun served',
      (s) => s.service === 'workflows' && s.tags['span.kind'] === 'server' && s.name.endsWith('/StartRun'),
    );
    const producer = one(
      spans,
      'the task published',
      (s) => s.tags['span.kind'] === 'producer' && s.name.endsWith('queue.workflow publish'),
    );
    const consumer = one(
      spans,
      'the task consumed',
      (s) => s.tags['span.kind'] === 'consumer' && s.name.endsWith('queue.workflow process'),
    );
    const run = one(spans, 'workflow.run', (s) => s.name === 'workflow.run');
    const llmNode = one(spans, 'the llm node', (s) => s.name === 'workflow.node llm');
    const modelsServed = spans.filter((s) => s.service === 'models' && s.tags['span.kind'] === 'server');
    const modelCall = one(spans, 'the model call', (s) => s.tags['outbound.purpose'] === 'llm');

    expect(ancestors(startRun, spans)).toContain(gatewaySpan);
    expect(ancestors(producer, spans)).toContain(startRun);
    expect(consumer.parentSpanId).toBe(producer.spanId);
    expect(run.parentSpanId).toBe(consumer.spanId);
    for (const type of ['start', 'llm', 'end']) {
      expect(one(spans, `node ${type}`, (s) => s.name === `workflow.node ${type}`).parentSpanId).toBe(
        run.spanId,
      );
    }
    expect(llmNode.tags).toMatchObject({ 'workflow.node.id': 'ask', 'workflow.node.outcome': 'success' });
    expect(modelsServed.length).toBeGreaterThan(0);
    for (const served of modelsServed) expect(ancestors(served, spans)).toContain(llmNode);
    expect(modelCall.parentSpanId).toBe(llmNode.spanId);
    expect(modelCall.tags).toMatchObject({
      'span.kind': 'client',
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
    });
  });

  it('an SSE stream is a child span of its request with the resume point and the events sent; its gRPC call below', async () => {
    expect(finishedRun).toBeDefined();
    const sse = await openSse(`${gateway.baseUrl}/api/v1${finishedRun!.streamUrl}`, {
      authorization: `Bearer ${ownerToken}`,
      'last-event-id': '2',
    });
    await sse.ended;
    expect(sse.events.length).toBeGreaterThan(2);
    const spans = await waitUntil(
      async () => {
        const [traceId] = await backend.findTraceIds('gateway', 'sse.last_event_id', '2');
        if (!traceId) return undefined;
        const all = await backend.traceSpans(traceId);
        return all.some((s) => s.service === 'workflows' && s.tags['span.kind'] === 'server')
          ? all
          : undefined;
      },
      30_000,
      'no trace of the stream in Jaeger',
      250,
    );
    const request = one(
      spans,
      'the stream request',
      (s) => s.service === 'gateway' && s.tags['span.kind'] === 'server',
    );
    const stream = one(spans, 'sse stream', (s) => s.name === 'sse stream');
    expect(stream.parentSpanId).toBe(request.spanId);
    expect(stream.tags).toMatchObject({ 'sse.events_sent': sse.events.length, 'sse.end': 'completed' });
    const call = one(
      spans,
      'the stream call',
      (s) => s.service === 'gateway' && s.tags['span.kind'] === 'client',
    );
    expect(call.parentSpanId).toBe(stream.spanId);
    const served = one(
      spans,
      'the stream served',
      (s) => s.service === 'workflows' && s.tags['span.kind'] === 'server',
    );
    expect(served.parentSpanId).toBe(call.spanId);
  });
});
