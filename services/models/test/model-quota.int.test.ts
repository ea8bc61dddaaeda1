import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageKeyPruner } from '../src/domain/quota/usage-key-pruner.js';
import { periodOf } from '../src/domain/quota/usage-period.js';
import { startGrantsHarness, type GrantsHarness } from './support/grants-harness.js';

// The quota contract of the agent runtime (docs/models.md "Grants and quotas"), on real Postgres:
// atomic per-period counters, idempotent records, the authorization order and the quota edge.
let harness: GrantsHarness;

beforeAll(async () => {
  harness = await startGrantsHarness();
}, 90_000);
afterAll(async () => {
  await harness?.stop();
});

const record = (teamId: string, modelId: string, tokens: number, requests = 1, key: string = randomUUID()) =>
  harness.runtime.call('recordModelUsage', {
    team_id: teamId,
    model_id: modelId,
    tokens,
    requests,
    idempotency_key: key,
  });
const authorize = (teamId: string, modelId: string) =>
  harness.runtime.call('authorizeModelUse', { team_id: teamId, model_id: modelId });
/** The business code of a refused call, 0 when it was allowed. */
const authorizeCode = (teamId: string, modelId: string) =>
  authorize(teamId, modelId).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );

async function grantedModel(grant: { token_quota?: number; request_quota?: number } = {}) {
  const teamId = randomUUID();
  const modelId = await harness.insertModel();
  await harness.insertGrant(teamId, modelId, grant);
  return { teamId, modelId };
}

async function counters(teamId: string, modelId: string) {
  const { rows } = await harness.models.pool.query<{ tokens: string; requests: string }>(
    'SELECT tokens, requests FROM model_usage_counters WHERE team_id = $1 AND model_id = $2',
    [teamId, modelId],
  );
  return rows.map((row) => ({ tokens: Number(row.tokens), requests: Number(row.requests) }));
}

describe('RecordModelUsage', () => {
  it('loses no update under a parallel burst: the counters equal the sum recorded', async () => {
    const { teamId, modelId } = await grantedModel();
    const amounts = Array.from({ length: 300 }, (_, i) => (i * 37) % 500);
    const results = await Promise.all(amounts.map((tokens) => record(teamId, modelId, tokens, 2)));
    const sum = amounts.reduce((a, b) => a + b, 0);
    expect(results.every((result) => !result.duplicate)).toBe(true);
    expect(await counters(teamId, modelId)).toEqual([{ tokens: sum, requests: 600 }]);
    // Every answer shows the counters right after its own addition: all distinct, the last = total.
    const seen = results.map((result) => result.usage!.requests).sort((a, b) => a - b);
    expect(new Set(seen).size).toBe(300);
    expect(seen.at(-1)).toBe(600);
  });

  it('counts a key once when it is sent again, also concurrently with the first attempt', async () => {
    const { teamId, modelId } = await grantedModel();
    const keys = Array.from({ length: 40 }, (_, i) => ({ key: `run-${randomUUID()}`, tokens: 10 + i }));
    const calls = keys.flatMap(({ key, tokens }) =>
      Array.from({ length: 5 }, () => record(teamId, modelId, tokens, 1, key)),
    );
    const results = await Promise.all(calls);
    const sum = keys.reduce((total, { tokens }) => total + tokens, 0);
    expect(await counters(teamId, modelId)).toEqual([{ tokens: sum, requests: 40 }]);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(40);
    expect(results.filter((result) => result.duplicate)).toHaveLength(160);
    const again = await record(teamId, modelId, keys[0]!.tokens, 1, keys[0]!.key);
    expect(again).toMatchObject({ duplicate: true, usage: { tokens: sum, requests: 40 } });
  });

  it('forgets keys after the retention, keeping the counters', async () => {
    const { teamId, modelId } = await grantedModel();
    const key = `old-${randomUUID()}`;
    await record(teamId, modelId, 40, 1, key);
    const pruner = new UsageKeyPruner(
      { pool: harness.models.pool, logger: harness.models.dependencies.logger, now: harness.clock.date },
      40,
    );
    const keyRows = () =>
      harness.models.pool.query('SELECT 1 FROM model_usage_records WHERE idempotency_key = $1', [key]);
    await pruner.pruneOnce();
    expect((await keyRows()).rows).toHaveLength(1);
    harness.clock.advance(41 * 86_400_000);
    try {
      expect(await pruner.pruneOnce()).toBeGreaterThanOrEqual(1);
    } finally {
      harness.clock.reset();
    }
    expect((await keyRows()).rows).toHaveLength(0);
    expect(await counters(teamId, modelId)).toEqual([{ tokens: 40, requests: 1 }]);
  });

  it('refuses a key reused for a different usage, and malformed input, with 1001', async () => {
    const { teamId, modelId } = await grantedModel();
    const key = `k-${randomUUID()}`;
    await record(teamId, modelId, 5, 1, key);
    await expect(record(teamId, modelId, 6, 1, key)).rejects.toMatchObject({ code: 1001 });
    await expect(record(teamId, modelId, -1)).rejects.toMatchObject({ code: 1001 });
    await expect(record('not-a-uuid', modelId, 1)).rejects.toMatchObject({ code: 1001 });
    await expect(record(teamId, modelId, 1, 1, '')).rejects.toMatchObject({ code: 1001 });
    await expect(record(teamId, modelId, 1, 1, 'x'.repeat(201))).rejects.toMatchObject({ code: 1001 });
    expect(await counters(teamId, modelId)).toEqual([{ tokens: 5, requests: 1 }]);
  });
});

describe('AuthorizeModelUse', () => {
  it('answers 6101 unknown model, 6104 no grant, 6106 disabled model or grant, else allowed with usage', async () => {
    const teamId = randomUUID();
    const modelId = await harness.insertModel();
    await expect(authorize(teamId, randomUUID())).rejects.toMatchObject({ code: 6101, httpStatus: 404 });
    await expect(authorize(teamId, modelId)).rejects.toMatchObject({ code: 6104, httpStatus: 400 });
    await harness.insertGrant(teamId, modelId, { token_quota: 100 });
    const allowed = await authorize(teamId, modelId);
    expect(allowed).toMatchObject({
      allowed: true,
      token_quota: 100,
      usage: { period: periodOf(harness.clock.date()).key, tokens: 0, requests: 0 },
    });
    expect(allowed.request_quota).toBeUndefined();
    await harness.models.pool.query('UPDATE team_model_grants SET is_enabled = false WHERE model_id = $1', [
      modelId,
    ]);
    await expect(authorize(teamId, modelId)).rejects.toMatchObject({ code: 6106, httpStatus: 400 });
    await harness.models.pool.query('UPDATE team_model_grants SET is_enabled = true WHERE model_id = $1', [
      modelId,
    ]);
    await harness.models.pool.query('UPDATE models SET is_enabled = false WHERE id = $1', [modelId]);
    await expect(authorize(teamId, modelId)).rejects.toMatchObject({ code: 6106 });
  });

  it('allows up to the edge and refuses at it (6103, HTTP 429), for tokens and for requests, under bursts', async () => {
    const { teamId, modelId } = await grantedModel({ token_quota: 1_000, request_quota: 50 });
    await record(teamId, modelId, 999, 10);
    // One token left: every caller of a burst is still allowed.
    expect(
      new Set(await Promise.all(Array.from({ length: 40 }, () => authorizeCode(teamId, modelId)))),
    ).toEqual(new Set([0]));
    await record(teamId, modelId, 1, 0);
    const refused = await Promise.all(Array.from({ length: 40 }, () => authorizeCode(teamId, modelId)));
    expect(new Set(refused)).toEqual(new Set([6103]));
    await expect(authorize(teamId, modelId)).rejects.toMatchObject({
      code: 6103,
      httpStatus: 429,
      data: { tokens_used: 1_000, token_quota: 1_000, request_quota: 50 },
    });

    const requests = await grantedModel({ request_quota: 30 });
    await record(requests.teamId, requests.modelId, 0, 29);
    expect(await authorizeCode(requests.teamId, requests.modelId)).toBe(0);
    await record(requests.teamId, requests.modelId, 0, 1);
    expect(await authorizeCode(requests.teamId, requests.modelId)).toBe(6103);
  });

  it('with callers racing authorize-then-record to the request quota, counts every record and then refuses all', async () => {
    const { teamId, modelId } = await grantedModel({ request_quota: 60 });
    let recorded = 0;
    const caller = async () => {
      while ((await authorizeCode(teamId, modelId)) === 0) {
        await record(teamId, modelId, 3, 1);
        recorded += 1;
      }
    };
    await Promise.all(Array.from({ length: 25 }, caller));
    const [row] = await counters(teamId, modelId);
    // No lost update: the counters hold exactly what was recorded. Authorization is a check, not a
    // reservation, so callers admitted together may pass the quota by at most their number.
    expect(row).toEqual({ tokens: recorded * 3, requests: recorded });
    expect(recorded).toBeGreaterThanOrEqual(60);
    expect(recorded).toBeLessThan(60 + 25);
    expect(
      new Set(await Promise.all(Array.from({ length: 25 }, () => authorizeCode(teamId, modelId)))),
    ).toEqual(new Set([6103]));
  });
});

describe('periods', () => {
  it('start a fresh counter in the next calendar month (server time); reads list both periods', async () => {
    const { teamId, modelId } = await grantedModel({ request_quota: 2 });
    const first = periodOf(harness.clock.date());
    await record(teamId, modelId, 70, 2);
    await expect(authorize(teamId, modelId)).rejects.toMatchObject({ code: 6103 });
    try {
      harness.clock.advance(first.end.getTime() - harness.clock.now() + 1_000);
      const next = periodOf(harness.clock.date());
      expect(next.key).not.toBe(first.key);
      expect(await authorize(teamId, modelId)).toMatchObject({
        usage: { period: next.key, tokens: 0, requests: 0 },
      });
      await record(teamId, modelId, 30, 1);
      const range = {
        from: first.start.toISOString(),
        to: next.end.toISOString(),
        team_id: teamId,
        model_id: '',
      };
      const totals = await harness.observability.call('getModelUsageTotals', range);
      expect(totals).toMatchObject({
        tokens: 100,
        requests: 3,
        periods: [
          { period: first.key, tokens: 70, requests: 2 },
          { period: next.key, tokens: 30, requests: 1 },
        ],
      });
      const listed = await harness.observability.call('listModelUsage', { ...range, page: 1, page_size: 10 });
      expect(listed.total).toBe(2);
      expect(listed.items.map((item) => [item.model_id, item.usage!.period, item.usage!.tokens])).toEqual([
        [modelId, next.key, 30],
        [modelId, first.key, 70],
      ]);
    } finally {
      harness.clock.reset();
    }
  });

  it('refuses a malformed or empty range with 1001', async () => {
    const call = (from: string, to: string) =>
      harness.observability.call('getModelUsageTotals', { from, to, team_id: '', model_id: '' });
    await expect(call('yesterday', '')).rejects.toMatchObject({ code: 1001 });
    await expect(call('2026-05-01T00:00:00Z', '2026-04-01T00:00:00Z')).rejects.toMatchObject({ code: 1001 });
    await expect(call('1900-01-01T00:00:00Z', '2026-04-01T00:00:00Z')).rejects.toMatchObject({ code: 1001 });
  });
});

describe('the quota methods are internal-only', () => {
  it('serve the named callers and refuse every other service with 403 / 3000', async () => {
    const { teamId, modelId } = await grantedModel();
    // observability is a caller of models (usage reads), not of the quota pair: 403.
    await expect(
      harness.quotaClient('observability').call('authorizeModelUse', { team_id: teamId, model_id: modelId }),
    ).rejects.toMatchObject({ code: 3000, httpStatus: 403 });
    // Services models holds no key of are strangers here: 401 before any table.
    for (const service of ['gateway', 'notifications', 'apikeys']) {
      await expect(
        harness.quotaClient(service).call('authorizeModelUse', { team_id: teamId, model_id: modelId }),
      ).rejects.toMatchObject({ code: 2001, httpStatus: 401 });
    }
    await expect(
      harness.quotaClient('agent-runtime').call('getModelUsageTotals', {
        from: new Date().toISOString(),
        to: '',
        team_id: '',
        model_id: '',
      }),
    ).rejects.toMatchObject({ code: 3000 });
    expect(
      await harness
        .quotaClient('workflows')
        .call('authorizeModelUse', { team_id: teamId, model_id: modelId }),
    ).toMatchObject({ allowed: true });
  });
});
