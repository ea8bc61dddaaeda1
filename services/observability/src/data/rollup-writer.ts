import type { PoolClient } from '@platform/db';
import { hourOf } from '../domain/facts/fact-contract.js';
import { writeWindowDeltas } from './window-writer.js';

/**
 * Deltas for the rollup tables, summed in memory for one batch of newly inserted facts and then
 * written with one upsert per table. Rows are written in key order so concurrent batches lock them
 * in the same order (no deadlocks between replicas).
 */
export class RollupDeltas {
  private readonly counts = new Map<string, number[]>();
  private readonly hourly = new Map<string, number>();
  private readonly models = new Map<string, number[]>();
  private readonly nodes = new Map<string, number[]>();

  count(
    source: number,
    entityId: string,
    at: Date,
    delta: { successes: number; timeouts: number; tokens: number; failedNodes: number },
  ) {
    // entity id last: it is the only part that may contain the separator.
    const key = `${source}\u0001${hourOf(at)}\u0001${entityId}`;
    const row = this.counts.get(key) ?? [0, 0, 0, 0, 0];
    row[0]! += 1;
    row[1]! += delta.successes;
    row[2]! += delta.timeouts;
    row[3]! += delta.tokens;
    row[4]! += delta.failedNodes;
    this.counts.set(key, row);
  }

  /** One duration into the entity's histogram and the total ('' entity). */
  duration(source: number, metric: number, entityId: string, at: Date, ms: number) {
    for (const entity of [entityId, '']) {
      const hourKey = `${source}\u0001${metric}\u0001${hourOf(at)}\u0001${ms}\u0001${entity}`;
      this.hourly.set(hourKey, (this.hourly.get(hourKey) ?? 0) + 1);
    }
  }

  model(source: number, model: string, at: Date, tokens: number) {
    const key = `${source}\u0001${hourOf(at)}\u0001${model}`;
    const row = this.models.get(key) ?? [0, 0];
    row[0]! += tokens;
    row[1]! += 1;
    this.models.set(key, row);
  }

  node(workflowId: string, nodeType: string, at: Date, failed: boolean, durationMs: number) {
    const key = `${hourOf(at)}\u0001${nodeType}\u0001${workflowId}`;
    const row = this.nodes.get(key) ?? [0, 0, 0];
    row[0]! += 1;
    row[1]! += failed ? 1 : 0;
    row[2]! += durationMs;
    this.nodes.set(key, row);
  }

  async write(client: PoolClient): Promise<void> {
    if (this.counts.size > 0) {
      const rows = sorted(this.counts);
      await client.query(
        `INSERT INTO hourly_counts (source, hour, entity_id, requests, successes, timeouts, tokens, failed_nodes)
         SELECT * FROM unnest($1::smallint[], $2::timestamptz[], $3::text[], $4::bigint[], $5::bigint[],
                              $6::bigint[], $7::bigint[], $8::bigint[])
         ON CONFLICT (hour, source, entity_id) DO UPDATE SET
           requests = hourly_counts.requests + EXCLUDED.requests,
           successes = hourly_counts.successes + EXCLUDED.successes,
           timeouts = hourly_counts.timeouts + EXCLUDED.timeouts,
           tokens = hourly_counts.tokens + EXCLUDED.tokens,
           failed_nodes = hourly_counts.failed_nodes + EXCLUDED.failed_nodes`,
        [...columns(rows, 3), ...valueColumns(rows, 5)],
      );
    }
    if (this.hourly.size > 0) {
      const rows = [...this.hourly.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, n]) => [...key.split('\u0001'), n]);
      await client.query(
        `INSERT INTO duration_histogram (source, metric, hour, ms, entity_id, n)
         SELECT * FROM unnest($1::smallint[], $2::smallint[], $3::timestamptz[], $4::integer[], $5::text[], $6::bigint[])
         ON CONFLICT (source, metric, entity_id, hour, ms) DO UPDATE SET n = duration_histogram.n + EXCLUDED.n`,
        [0, 1, 2, 3, 4, 5].map((i) => rows.map((row) => row[i])),
      );
    }
    await writeWindowDeltas(client, this.counts, this.hourly);
    if (this.models.size > 0) {
      const rows = sorted(this.models);
      await client.query(
        `INSERT INTO hourly_model_tokens (source, hour, model, tokens, requests)
         SELECT * FROM unnest($1::smallint[], $2::timestamptz[], $3::text[], $4::bigint[], $5::bigint[])
         ON CONFLICT (hour, source, model) DO UPDATE SET
           tokens = hourly_model_tokens.tokens + EXCLUDED.tokens,
           requests = hourly_model_tokens.requests + EXCLUDED.requests`,
        [...columns(rows, 3), ...valueColumns(rows, 2)],
      );
    }
    if (this.nodes.size > 0) {
      const rows = sorted(this.nodes);
      await client.query(
        `INSERT INTO hourly_node_types (hour, node_type, workflow_id, executions, failed, duration_sum_ms)
         SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::float8[])
         ON CONFLICT (workflow_id, hour, node_type) DO UPDATE SET
           executions = hourly_node_types.executions + EXCLUDED.executions,
           failed = hourly_node_types.failed + EXCLUDED.failed,
           duration_sum_ms = hourly_node_types.duration_sum_ms + EXCLUDED.duration_sum_ms`,
        [...columns(rows, 3), ...valueColumns(rows, 3)],
      );
    }
  }
}

type Row = { key: string[]; values: number[] };

function sorted(map: Map<string, number[]>): Row[] {
  return [...map.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, values]) => ({ key: key.split('\u0001'), values }));
}

function columns(rows: Row[], width: number): string[][] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row.key[i]!));
}

function valueColumns(rows: Row[], width: number): number[][] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row.values[i]!));
}
