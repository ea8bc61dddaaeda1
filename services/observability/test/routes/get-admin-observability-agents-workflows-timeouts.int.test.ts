// GET /admin/observability/agents, /agent/{agent_id}, /workflows, /workflow/{workflow_id} and
// /timeouts (gateway routes/observability-routes.ts): the per-entity figures. The access table of
// all eight analytics routes, bad input, entity ids, then the answers over the fixture facts
// (support/analytics-facts.ts) and the security cases. Overview, throughput and tokens:
// get-admin-observability-overview-throughput-tokens.
import { TimeRange } from '@platform/contracts/platform/observability/v1/analytics';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { routeSecurity, type IdentityUser } from '@platform/testing';
import {
  A,
  analyticsGetter,
  B,
  HOUR,
  T,
  useAnalyticsSuite,
  withFixtureFacts,
  W1,
  W2,
} from '../support/analytics-facts.js';
import type { ObservabilityHarness } from '../support/harness.js';

let h: ObservabilityHarness;
let admin: IdentityUser;
const P = '/admin/observability';
const ROUTES = [
  '/overview',
  '/agents',
  '/agent/some-agent',
  '/workflows',
  '/workflow/some-workflow',
  '/timeouts',
  '/throughput',
  '/tokens',
];

useAnalyticsSuite((started, user) => {
  [h, admin] = [started, user];
});
const get = analyticsGetter(() => ({ h, admin }));

describe('observability analytics: access', () => {
  it('no token is 401 / 2000, a user without admin:dashboard:access 403 / 3000 on every route', async () => {
    const user = await h.createUser();
    const results = await Promise.all(
      ROUTES.flatMap((route) => [
        h.request('GET', `${P}${route}`),
        h.request('GET', `${P}${route}`, { token: user.token }),
      ]),
    );
    results.forEach((result, i) => {
      const expected = i % 2 === 0 ? [401, 2000] : [403, 3000];
      expect([result.status, result.body.code], ROUTES[Math.floor(i / 2)]).toEqual(expected);
    });
  });
});

describe('observability analytics: parameters', () => {
  it('bad paging, sort, source and granularity are 422 / 1001 on every route that takes them', async () => {
    const bad = [
      '/agents?page=0',
      '/agents?page_size=101',
      '/agents?page_size=0',
      '/agents?page=abc',
      '/agents?sort_by=runs',
      '/agents?sort_order=up',
      '/workflows?page=-1',
      '/workflows?sort_by=nope',
      '/workflows?sort_order=DESC',
      '/timeouts?page_size=1000',
      '/timeouts?source=system',
      '/timeouts?sort_order=sideways',
      '/throughput?granularity=week',
    ];
    const results = await Promise.all(
      bad.map((path) => h.request('GET', `${P}${path}`, { token: admin.token })),
    );
    results.forEach((result, i) => expect([result.status, result.body.code], bad[i]).toEqual([422, 1001]));
  });
});

describe('observability analytics: entity ids (issue 20)', () => {
  const MALFORMED = ['not-a-uuid', '12345', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(200)];

  it('a malformed agent or workflow id is 422 / 1001 naming the parameter, never a page of zeros', async () => {
    const cases = MALFORMED.flatMap((id) => [
      { path: `/agent/${id}`, field: 'agent_id' },
      { path: `/workflow/${id}`, field: 'workflow_id' },
    ]);
    const results = await Promise.all(
      cases.map(({ path }) => h.request('GET', `${P}${path}`, { token: admin.token })),
    );
    results.forEach((result, i) => {
      expect([result.status, result.body.code], cases[i]!.path).toEqual([422, 1001]);
      expect(Object.keys(result.body.data.errors), cases[i]!.path).toEqual([cases[i]!.field]);
    });
  });

  it('a well-formed id without data still answers 200 with zeros', async () => {
    for (const kind of ['agent', 'workflow'] as const) {
      const response = await h.request('GET', `${P}/${kind}/${randomUUID()}`, { token: admin.token });
      expect([response.status, response.body.code]).toEqual([200, 0]);
      expect(response.body.data[kind].requests).toBe(0);
    }
  });

  it('the service refuses a malformed id itself (1001), for a caller that skips the gateway route', async () => {
    const principal = await h.gateway.principals.resolve(admin.id);
    for (const method of ['getAgent', 'getWorkflow'] as const) {
      for (const id of ['not-a-uuid', '../../etc/passwd', '']) {
        const refused = await h.gateway.clients.analytics
          .call(method, { id, time_range: TimeRange.TIME_RANGE_UNSPECIFIED }, { principal: principal! })
          .then(
            () => 'answered',
            (err: { code?: number }) => err.code,
          );
        expect(refused, `${method}(${JSON.stringify(id)})`).toBe(1001);
      }
    }
  });
});

describe('analytics over fixture facts published on the telemetry topics', () => {
  withFixtureFacts(() => ({ h, admin }));

  it('agents: list sorted and paged with ids and names, detail with trend', async () => {
    const list = await get('/agents?time_range=7d&sort_by=requests');
    expect(list.total).toBe(2);
    expect(list.items.map((a: { agent_id: string }) => a.agent_id)).toEqual([A, B]);
    expect(list.items[0]).toMatchObject({
      agent_id: A,
      agent_name: 'Alpha',
      requests: 4,
      completed: 3,
      errors: 1,
      success_rate: 75,
      timeout_rate: 25,
      tokens: 33,
      p50: 250,
    });
    expect(list.items[0].p90).toBeCloseTo(370, 9);
    expect(list.items[0].p99).toBeCloseTo(397, 9);
    expect(list.items[1]).toMatchObject({ agent_id: B, agent_name: null, requests: 1, p50: 1000, p99: 1000 });
    const ascending = await get('/agents?time_range=7d&sort_by=p50&sort_order=asc&page=2&page_size=1');
    expect(ascending).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(ascending.items.map((a: { agent_id: string }) => a.agent_id)).toEqual([B]);
    // Sorted by a percentile, the page still carries every figure (not only the sort key's).
    const byP99 = await get('/agents?time_range=7d&sort_by=p99&sort_order=asc&page=1&page_size=1');
    expect(byP99.items[0]).toMatchObject({ agent_id: A, p50: 250 });
    expect(byP99.items[0].p90).toBeCloseTo(370, 9);
    expect(byP99.items[0].p99).toBeCloseTo(397, 9);
    expect(byP99.items[0].ttft.p50_ms).toBe(20);

    const detail = await get(`/agent/${A}?time_range=7d`);
    expect(detail.agent).toMatchObject({ agent_id: A, agent_name: 'Alpha', requests: 4, tokens: 33 });
    expect(detail.granularity).toBe('hour');
    const bucket = detail.trend.find(
      (p: { bucket: string }) => p.bucket === new Date(Math.floor(T.getTime() / HOUR) * HOUR).toISOString(),
    );
    expect(bucket).toEqual({ bucket: bucket.bucket, requests: 4, successes: 3, failures: 1, tokens: 33 });
  });

  it('workflows: list with failed nodes, detail with node types', async () => {
    const list = await get('/workflows?time_range=7d&sort_by=runs');
    expect(list.items.map((w: { workflow_id: string }) => w.workflow_id)).toEqual([W1, W2]);
    expect(list.items[0]).toMatchObject({
      workflow_id: W1,
      workflow_name: 'Flow One',
      runs: 3,
      succeeded: 2,
      failed: 1,
      timeouts: 1,
      failed_nodes: 2,
      tokens: 10,
      p50: 800,
    });
    expect(list.items[0].p90).toBeCloseTo(1760, 9);
    expect(list.items[0].p99).toBeCloseTo(1976, 9);
    expect(list.items[1]).toMatchObject({
      workflow_id: W2,
      workflow_name: null,
      runs: 1,
      succeeded: 0,
      failed: 1,
      p50: 50,
    });
    const byNodes = await get('/workflows?time_range=7d&sort_by=failed_nodes&sort_order=asc');
    expect(byNodes.items.map((w: { workflow_id: string }) => w.workflow_id)).toEqual([W2, W1]);

    const detail = await get(`/workflow/${W1}`);
    expect(detail.workflow).toMatchObject({ workflow_id: W1, workflow_name: 'Flow One', runs: 3 });
    expect(detail.node_types).toEqual([
      { node_type: 'llm', execution_count: 2, failed_count: 1, avg_duration_ms: 1050 },
      { node_type: 'code', execution_count: 1, failed_count: 1, avg_duration_ms: 40 },
    ]);
  });

  it('timeouts: workflow timeouts and agent errors, paged, agent type unavailable', async () => {
    const all = await get('/timeouts?time_range=7d');
    expect(all.total).toBe(2);
    expect(all.agent_timeout_type_available).toBe(false);
    expect(
      all.items.map((i: { source: string; timeout_type: string }) => [i.source, i.timeout_type]).sort(),
    ).toEqual([
      ['agent', 'unknown'],
      ['workflow', 'workflow'],
    ]);
    const agentOnly = await get('/timeouts?source=agent');
    expect(agentOnly.items).toHaveLength(1);
    expect(agentOnly.items[0]).toMatchObject({
      entity_id: A,
      entity_name: 'Alpha',
      status: 'error',
      duration_ms: 400,
    });
    const longest = await get('/timeouts?sort_by=duration_ms&page_size=1');
    expect(longest.items[0]).toMatchObject({
      source: 'workflow',
      entity_id: W1,
      entity_name: 'Flow One',
      duration_ms: 2000,
    });
  });
});

describe('GET /admin/observability/agents, /agent/{id}, /workflows, /workflow/{id}, /timeouts: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:dashboard:access → 403 / 3000', async () => {
    const paths = ['/agents', `/agent/${A}`, '/workflows', `/workflow/${W1}`, '/timeouts'];
    const user = await h.createUser();
    const { answers, expected } = await routeSecurity(
      h.request,
      paths.map((path) => ['GET', `${P}${path}`] as const),
      user.token,
    );
    expect(answers).toEqual(expected);
  });
});
