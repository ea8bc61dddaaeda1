import { withTransaction, type Pool } from '@platform/db';
import { METRIC, SOURCE, type AgentRoundFact, type WorkflowRunFact } from '../domain/facts/fact-contract.js';
import { RollupDeltas } from './rollup-writer.js';

/** The first fact per id in a batch (a redelivery inside one batch is the same fact). */
function firstPerId<T extends { id: string }>(facts: T[], prefer?: (a: T, b: T) => boolean): T[] {
  const byId = new Map<string, T>();
  for (const fact of facts) {
    const seen = byId.get(fact.id);
    if (!seen || prefer?.(fact, seen)) byId.set(fact.id, fact);
  }
  return [...byId.values()];
}

/**
 * Stores agent rounds and adds the newly inserted ones to the rollups, in one transaction: a
 * round id already stored (redelivery, replay) inserts nothing and so counts nothing.
 * Returns how many rounds were new.
 */
export async function ingestAgentRounds(pool: Pool, batch: AgentRoundFact[]): Promise<number> {
  const facts = firstPerId(batch);
  if (facts.length === 0) return 0;
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO agent_rounds (id, agent_id, user_id, team_id, round_status, duration_ms, first_token_ms,
                                 prompt_tokens, completion_tokens, model, started_at, finished_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
                            $7::integer[], $8::bigint[], $9::bigint[], $10::text[], $11::timestamptz[],
                            $12::timestamptz[])
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        facts.map((f) => f.id),
        facts.map((f) => f.agentId),
        facts.map((f) => f.userId),
        facts.map((f) => f.teamId),
        facts.map((f) => f.status),
        facts.map((f) => f.durationMs),
        facts.map((f) => f.firstTokenMs),
        facts.map((f) => f.promptTokens),
        facts.map((f) => f.completionTokens),
        facts.map((f) => f.model),
        facts.map((f) => f.startedAt),
        facts.map((f) => f.finishedAt),
      ],
    );
    const inserted = new Set(rows.map((row) => row.id));
    const deltas = new RollupDeltas();
    for (const fact of facts) {
      if (!inserted.has(fact.id)) continue;
      const tokens = fact.promptTokens + fact.completionTokens;
      const at = fact.finishedAt;
      deltas.count(SOURCE.agent, fact.agentId, at, {
        successes: fact.status === 'completed' ? 1 : 0,
        timeouts: fact.status === 'error' ? 1 : 0,
        tokens,
        failedNodes: 0,
      });
      deltas.duration(SOURCE.agent, METRIC.latency, fact.agentId, at, fact.durationMs);
      if (fact.firstTokenMs !== null) {
        deltas.duration(SOURCE.agent, METRIC.ttft, fact.agentId, at, fact.firstTokenMs);
      }
      deltas.model(SOURCE.agent, fact.model, at, tokens);
    }
    await deltas.write(client);
    return inserted.size;
  });
}

/**
 * Stores workflow runs. A `running` fact is kept (for `running_workflows`) but counts nowhere; the
 * first final fact of a run replaces it and is added to the rollups; anything later for that run
 * (redelivery, replay, a stale `running`) changes nothing. Returns how many runs became final.
 */
export async function ingestWorkflowRuns(pool: Pool, batch: WorkflowRunFact[]): Promise<number> {
  const facts = firstPerId(batch, (next, seen) => seen.status === 'running' && next.status !== 'running');
  if (facts.length === 0) return 0;
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; status: string }>(
      `INSERT INTO workflow_runs (id, workflow_id, user_id, team_id, status, total_duration_ms, total_tokens,
                                  failed_nodes, started_at, finished_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
                            $7::bigint[], $8::integer[], $9::timestamptz[], $10::timestamptz[])
       ON CONFLICT (id) DO UPDATE SET
         workflow_id = EXCLUDED.workflow_id, user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id,
         status = EXCLUDED.status, total_duration_ms = EXCLUDED.total_duration_ms,
         total_tokens = EXCLUDED.total_tokens, failed_nodes = EXCLUDED.failed_nodes,
         started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at
       WHERE workflow_runs.status = 'running' AND EXCLUDED.status <> 'running'
       RETURNING id, status`,
      [
        facts.map((f) => f.id),
        facts.map((f) => f.workflowId),
        facts.map((f) => f.userId),
        facts.map((f) => f.teamId),
        facts.map((f) => f.status),
        facts.map((f) => f.totalDurationMs),
        facts.map((f) => f.totalTokens),
        facts.map((f) => f.nodes.filter((node) => node.failed).length),
        facts.map((f) => f.startedAt),
        facts.map((f) => f.finishedAt),
      ],
    );
    const final = new Set(rows.filter((row) => row.status !== 'running').map((row) => row.id));
    const deltas = new RollupDeltas();
    for (const fact of facts) {
      if (!final.has(fact.id)) continue;
      const at = fact.finishedAt;
      const failedNodes = fact.nodes.filter((node) => node.failed).length;
      deltas.count(SOURCE.workflow, fact.workflowId, at, {
        successes: fact.status === 'success' ? 1 : 0,
        timeouts: fact.status === 'timeout' ? 1 : 0,
        tokens: fact.totalTokens,
        failedNodes,
      });
      deltas.duration(SOURCE.workflow, METRIC.latency, fact.workflowId, at, fact.totalDurationMs);
      for (const node of fact.nodes)
        deltas.node(fact.workflowId, node.nodeType, at, node.failed, node.durationMs);
    }
    await deltas.write(client);
    return final.size;
  });
}
