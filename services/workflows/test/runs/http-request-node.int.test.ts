import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/domain/runs/engine/execute-run.js';
import { planRun } from '../../src/domain/runs/engine/plan.js';
import { definition, edge, node } from '../support/definitions.js';
import { MemoryJournal, runContext } from '../support/memory-journal.js';
import { startNodeStack, type NodeStack } from '../support/node-stack.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let stack: NodeStack;
let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  stack = await startNodeStack();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 3_000);
      if (req.url === '/missing')
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"nope"}');
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-city']) });
      res.end(JSON.stringify({ got: body ? (JSON.parse(body) as unknown) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await stack?.stop();
});

beforeEach(() => {
  seen.length = 0;
});

function httpRun(data: Record<string, unknown>) {
  return planRun(
    definition(
      [
        node('s', 'start', { inputs: [{ name: 'city', type: 'string' }] }),
        node('call', 'http_request', { method: 'POST', ...data }),
        node('e', 'end', { outputs: [{ name: 'response', value: '{{call.body}}' }] }),
      ],
      [edge('s', 'call'), edge('call', 'e')],
    ),
    stack.modules,
  );
}

const run = (plan: ReturnType<typeof httpRun>, journal = new MemoryJournal('run-h1'), runId = 'run-h1') =>
  executeRun({
    plan,
    run: runContext({ runId, inputs: { city: 'Oslo' } }),
    journal,
    modules: stack.modules,
    signal: new AbortController().signal,
  });

describe('http_request through the outbound guard', () => {
  it('refuses a loopback destination that is not in workflow_http_allowlist; nothing is sent', async () => {
    await stack.putSettings({ workflow_http_allowlist: [] });
    const journal = new MemoryJournal('run-h1');
    const outcome = await run(httpRun({ url: `${origin}/echo` }), journal);
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        code: 1002,
        node_id: 'call',
        data: { reason: 'http_destination_refused', guard_reason: 'blocked_address' },
      },
    });
    expect(seen).toEqual([]);
  });

  it('calls an allowlisted origin with templated URL, headers and JSON body, and the Idempotency-Key', async () => {
    await stack.putSettings({ workflow_http_allowlist: [origin] });
    const plan = httpRun({
      url: `${origin}/echo?q={{inputs.city}}`,
      headers: { 'X-City': '{{inputs.city}}', 'Idempotency-Key': 'client-chosen' },
      body: { city: '{{inputs.city}}', n: 1 },
    });
    const journal = new MemoryJournal('run-h1');
    const outcome = await run(plan, journal);
    expect(outcome).toEqual({
      status: 'success',
      outputs: { response: { got: { city: 'Oslo', n: 1 } } },
      totalTokens: 0,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/echo?q=Oslo', body: '{"city":"Oslo","n":1}' });
    expect(seen[0]?.headers).toMatchObject({
      'idempotency-key': 'run-h1:call',
      'x-city': 'Oslo',
      'content-type': 'application/json',
    });
    const call = journal.outcomes.get('call');
    expect(call?.outputs).toMatchObject({
      status: 201,
      headers: { 'x-echo': 'Oslo' },
      body: { got: { city: 'Oslo', n: 1 } },
    });
  });

  it('a node retried after a crash sends the same Idempotency-Key again', async () => {
    await stack.putSettings({ workflow_http_allowlist: [origin] });
    const plan = httpRun({ url: `${origin}/echo` });
    const journal = new MemoryJournal('run-h2', [
      {
        nodeId: 's',
        nodeType: 'start',
        position: 0,
        status: 'success',
        outputs: { city: 'Oslo' },
        branch: null,
        tokens: 0,
      },
      {
        nodeId: 'call',
        nodeType: 'http_request',
        position: 1,
        status: 'running',
        outputs: null,
        branch: null,
        tokens: 0,
      },
    ]);
    expect((await run(plan, journal, 'run-h2')).status).toBe('success');
    expect(journal.started()).toEqual(['call', 'e']);
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual(['run-h2:call']);
  });

  it('passing timeout_ms marks the node timeout and fails the run', async () => {
    await stack.putSettings({ workflow_http_allowlist: [origin] });
    const journal = new MemoryJournal('run-h1');
    const outcome = await run(httpRun({ url: `${origin}/slow`, timeout_ms: 200 }), journal);
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { node_id: 'call', data: { reason: 'node_timeout' } },
    });
    expect(journal.statuses()).toMatchObject({ call: 'timeout' });
  });

  it('a non-2xx answer fails the node (outputs kept) unless fail_on_error_status is false', async () => {
    await stack.putSettings({ workflow_http_allowlist: [origin] });
    const journal = new MemoryJournal('run-h1');
    const outcome = await run(httpRun({ url: `${origin}/missing` }), journal);
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { data: { reason: 'http_status', status: 404 } },
    });
    expect(journal.outcomes.get('call')?.outputs).toMatchObject({ status: 404, body: { error: 'nope' } });
    const tolerant = await run(httpRun({ url: `${origin}/missing`, fail_on_error_status: false }));
    expect(tolerant).toMatchObject({ status: 'success', outputs: { response: { error: 'nope' } } });
  });

  it('a templated header value with a line break is refused before anything is sent', async () => {
    await stack.putSettings({ workflow_http_allowlist: [origin] });
    const outcome = await executeRun({
      plan: httpRun({ url: `${origin}/echo`, headers: { 'X-City': '{{inputs.city}}' } }),
      run: runContext({ runId: 'run-h3', inputs: { city: 'Oslo\r\nX-Injected: 1' } }),
      journal: new MemoryJournal('run-h3'),
      modules: stack.modules,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ status: 'failed', error: { data: { reason: 'http_invalid_request' } } });
    expect(seen).toEqual([]);
  });

  it('never calls a metadata address, allowlisted or not; a closed port is a connection failure', async () => {
    await stack.putSettings({ workflow_http_allowlist: ['http://169.254.169.254', 'http://127.0.0.1:1'] });
    expect(await run(httpRun({ url: 'http://169.254.169.254/latest/meta-data/' }))).toMatchObject({
      status: 'failed',
      error: { data: { reason: 'http_destination_refused', guard_reason: 'metadata_address' } },
    });
    expect(await run(httpRun({ url: 'http://127.0.0.1:1/' }))).toMatchObject({
      status: 'failed',
      error: { data: { reason: 'http_connection_failed' } },
    });
  });
});
