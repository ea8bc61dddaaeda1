import { TimeRange } from '@platform/contracts/platform/observability/v1/analytics';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityUser } from '@platform/testing';
import { startObservabilityHarness, type ObservabilityHarness } from './support/harness.js';

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

beforeAll(async () => {
  h = await startObservabilityHarness();
  admin = await h.createUser({ roles: ['Admin'] });
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

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

  it('a superuser and a role holding admin:dashboard:access are let in', async () => {
    const superuser = await h.createUser({ roles: [], superuser: true });
    for (const token of [superuser.token, admin.token]) {
      const response = await h.request('GET', `${P}/overview`, { token });
      expect([response.status, response.body.code]).toEqual([200, 0]);
    }
  });
});

describe('observability analytics: parameters', () => {
  it('with no data every number is 0, never null', async () => {
    const overview = await h.request('GET', `${P}/overview`, { token: admin.token });
    expect(overview.body.data).toEqual({
      time_range: '30d',
      totals: { agent_requests: 0, workflow_runs: 0, total_requests: 0, total_tokens: 0 },
      rates: { agent_success_rate: 0, workflow_success_rate: 0, overall_success_rate: 0, timeout_rate: 0 },
      latency: { p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 },
      ttft: { p50_ms: 0, p90_ms: 0, p95_ms: 0, p99_ms: 0 },
      throughput: { current_qps: 0, peak_hourly_requests: 0 },
    });
    const nobody = randomUUID(); // an agent id that no fact names (ids are UUIDs, issue 20)
    const agent = await h.request('GET', `${P}/agent/${nobody}`, { token: admin.token });
    expect(agent.body.data.agent).toMatchObject({
      agent_id: nobody,
      agent_name: null,
      requests: 0,
      p50: 0,
      p99: 0,
    });
    const tokens = await h.request('GET', `${P}/tokens`, { token: admin.token });
    expect(tokens.body.data).toMatchObject({
      total: 0,
      by_source: { agent: 0, workflow: 0, other: 0 },
      by_model: [],
    });
    const list = await h.request('GET', `${P}/agents`, { token: admin.token });
    expect(list.body.data).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it('an unknown time_range falls back to 30d; granularity defaults by range', async () => {
    for (const value of ['bogus', '', '365d']) {
      const response = await h.request('GET', `${P}/overview?time_range=${value}`, { token: admin.token });
      expect([response.status, response.body.data.time_range]).toEqual([200, '30d']);
    }
    const week = await h.request('GET', `${P}/throughput?time_range=7d`, { token: admin.token });
    expect(week.body.data.granularity).toBe('hour');
    const fallback = await h.request('GET', `${P}/throughput?time_range=nope`, { token: admin.token });
    expect(fallback.body.data.granularity).toBe('day');
  });

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
