import { conformanceV1 } from '@platform/contracts';
import { createServiceClient } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { listen, stackEnv, uniqueName, type RunningHttp } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRoutes, startProbeService, type RunningProbe } from '../../../bench/src/probe/index.js';
import { createGatewayApp } from '../src/index.js';

// gateway (HTTP) → gRPC → probe use case → Postgres, and the business errors back again.
const logger = createLogger('crossing-test', 'silent');
let probe: RunningProbe;
let http: RunningHttp;
let client: ReturnType<typeof createServiceClient<typeof conformanceV1.ProbeServiceService>>;

beforeAll(async () => {
  probe = await startProbeService(stackEnv.databaseUrl, logger);
  client = createServiceClient(
    conformanceV1.ProbeServiceService,
    'platform.conformance.v1.ProbeService',
    probe.address,
    {
      defaultTimeoutMs: 1_000,
    },
  );
  http = await listen(
    createGatewayApp({
      logger,
      routes: probeRoutes.filter((route) => route.auth === 'public'),
      clients: { probe: client },
    }),
  );
});

afterAll(async () => {
  await http?.close();
  client?.close();
  await probe?.stop();
});

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${http.baseUrl}/api/v1${path}`, init);
  return {
    status: response.status,
    body: (await response.json()) as { code: number; data: any; msg: string },
    headers: response.headers,
  };
}

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('gateway → gRPC → service → Postgres', () => {
  it('creates a row and reads it back through every layer', async () => {
    const name = uniqueName('note');
    const created = await call('/probe/notes', post({ name, body: 'hello' }));
    expect(created.status).toBe(200);
    expect(created.body.code).toBe(0);
    expect(created.body.data).toMatchObject({ name, body: 'hello' });
    const { rows } = await probe.pool.query('SELECT body FROM probe_notes WHERE id = $1', [
      created.body.data.id,
    ]);
    expect(rows).toEqual([{ body: 'hello' }]);
    const read = await call(`/probe/notes/${created.body.data.id}`);
    expect(read.body).toEqual({ code: 0, data: created.body.data, msg: 'Success' });
  });

  it('maps a business error raised in the service to its HTTP status, code and localized msg', async () => {
    const name = uniqueName('dup');
    await call('/probe/notes', post({ name, body: 'first' }));
    const en = await call('/probe/notes', post({ name, body: 'second' }));
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ code: 5104, data: { name } });
    const zh = await call('/probe/notes', post({ name, body: 'third' }, { 'accept-language': 'zh-CN' }));
    expect(zh.body.code).toBe(5104);
    expect(zh.body.msg).not.toBe(en.body.msg);
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    const { rows } = await probe.pool.query('SELECT count(*)::int AS n FROM probe_notes WHERE name = $1', [
      name,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('a missing row is 404 / 4000', async () => {
    const missing = await call('/probe/notes/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(4000);
  });

  it('carries the request id and locale to the service', async () => {
    const echoed = await call('/probe/echo?text=hi', {
      headers: { 'x-request-id': 'trace-me-1', 'accept-language': 'zh' },
    });
    expect(echoed.body.data).toMatchObject({ text: 'hi', request_id: 'trace-me-1', locale: 'zh' });
  });

  it('a service slower than the deadline is 504 / 1003', async () => {
    const slow = await call('/probe/echo?text=x&delay_ms=1500');
    expect(slow.status).toBe(504);
    expect(slow.body).toMatchObject({ code: 1003, data: { error_key: 'service_timeout' } });
  });

  it('business errors also reach plain gRPC callers as google.rpc.Status details', async () => {
    const error = await client
      .call('getNote', { id: '00000000-0000-4000-8000-000000000000' })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 4000, httpStatus: 404, msgKey: 'not_found' });
  });
});
