-- Up Migration
-- Sliding-window rollups (docs/observability.md "Sliding windows"). The four time ranges (7d, 30d,
-- 90d, all) are kept as running totals: every fact is added to each window it falls in at ingest,
-- and a job subtracts the hours that leave a window as time moves on. A range query then reads one
-- small set of rows per entity instead of one per hour or day of the range.

-- The coarse bucket of a duration: exact below 64 ms, then 32 buckets per power of two (a bucket
-- spans at most 1/32 of its values). The service computes the same in TypeScript
-- (domain/analytics/duration-buckets.ts); a test checks that both agree.
CREATE FUNCTION duration_bucket(ms integer) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN ms < 64 THEN ms
              ELSE 64 + (e - 6) * 32 + ((ms >> (e - 5)) - 32) END
    FROM (SELECT 32 - position('1' IN ms::bit(32)::text) AS e) top_bit
$$;

-- win: 1 = 7d, 2 = 30d, 3 = 90d, 4 = all. from_hour: the first hour the window's rows hold (the
-- window holds every fact with a fact time >= from_hour); -infinity for `all`.
CREATE TABLE window_state (
  win smallint PRIMARY KEY,
  days integer,
  from_hour timestamptz NOT NULL
);
INSERT INTO window_state (win, days, from_hour) VALUES
  (1, 7, date_trunc('hour', now() - interval '7 days', 'UTC')),
  (2, 30, date_trunc('hour', now() - interval '30 days', 'UTC')),
  (3, 90, date_trunc('hour', now() - interval '90 days', 'UTC')),
  (4, NULL, '-infinity');

CREATE TABLE window_counts (
  win smallint NOT NULL,
  source smallint NOT NULL,
  entity_id text NOT NULL,
  requests bigint NOT NULL,
  successes bigint NOT NULL,
  timeouts bigint NOT NULL,
  tokens bigint NOT NULL,
  failed_nodes bigint NOT NULL,
  PRIMARY KEY (win, source, entity_id)
);

-- Per coarse bucket: where each rank falls. One row serves the four windows: column n<win> holds
-- window <win>'s count (a fact is one row write, not four). Entity '' is the total over the source.
CREATE TABLE window_buckets (
  source smallint NOT NULL,
  metric smallint NOT NULL,
  entity_id text NOT NULL,
  bucket integer NOT NULL,
  n1 bigint NOT NULL DEFAULT 0,
  n2 bigint NOT NULL DEFAULT 0,
  n3 bigint NOT NULL DEFAULT 0,
  n4 bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (source, metric, entity_id, bucket) INCLUDE (n1, n2, n3, n4)
);

-- Per millisecond: the exact value at a rank, read only inside the bucket that holds the rank.
CREATE TABLE window_values (
  source smallint NOT NULL,
  metric smallint NOT NULL,
  entity_id text NOT NULL,
  ms integer NOT NULL,
  n1 bigint NOT NULL DEFAULT 0,
  n2 bigint NOT NULL DEFAULT 0,
  n3 bigint NOT NULL DEFAULT 0,
  n4 bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (source, metric, entity_id, ms) INCLUDE (n1, n2, n3, n4)
);

-- Per hour and source, for the peak hour and the unfiltered throughput series (the per-entity
-- hourly_counts would be summed over every entity for those).
CREATE TABLE hourly_source_counts (
  hour timestamptz NOT NULL,
  source smallint NOT NULL,
  requests bigint NOT NULL,
  successes bigint NOT NULL,
  timeouts bigint NOT NULL,
  tokens bigint NOT NULL,
  failed_nodes bigint NOT NULL,
  PRIMARY KEY (hour, source)
);

-- Rebuilds the window tables and hourly_source_counts from the hourly rollups (here, and for a
-- bench that seeds facts with SQL). Windows start at their current from_hour.
CREATE FUNCTION rebuild_sliding_windows() RETURNS void LANGUAGE sql AS $$
  TRUNCATE window_counts, window_buckets, window_values, hourly_source_counts;
  INSERT INTO hourly_source_counts (hour, source, requests, successes, timeouts, tokens, failed_nodes)
  SELECT hour, source, sum(requests), sum(successes), sum(timeouts), sum(tokens), sum(failed_nodes)
    FROM hourly_counts GROUP BY hour, source;
  INSERT INTO window_counts (win, source, entity_id, requests, successes, timeouts, tokens, failed_nodes)
  SELECT w.win, c.source, c.entity_id, sum(c.requests), sum(c.successes), sum(c.timeouts), sum(c.tokens),
         sum(c.failed_nodes)
    FROM window_state w JOIN hourly_counts c ON c.hour >= w.from_hour
   GROUP BY w.win, c.source, c.entity_id;
  INSERT INTO window_values (source, metric, entity_id, ms, n1, n2, n3, n4)
  SELECT h.source, h.metric, h.entity_id, h.ms,
         coalesce(sum(h.n) FILTER (WHERE h.hour >= (SELECT from_hour FROM window_state WHERE win = 1)), 0),
         coalesce(sum(h.n) FILTER (WHERE h.hour >= (SELECT from_hour FROM window_state WHERE win = 2)), 0),
         coalesce(sum(h.n) FILTER (WHERE h.hour >= (SELECT from_hour FROM window_state WHERE win = 3)), 0),
         sum(h.n)
    FROM duration_histogram h
   GROUP BY h.source, h.metric, h.entity_id, h.ms;
  INSERT INTO window_buckets (source, metric, entity_id, bucket, n1, n2, n3, n4)
  SELECT source, metric, entity_id, duration_bucket(ms), sum(n1), sum(n2), sum(n3), sum(n4)
    FROM window_values GROUP BY source, metric, entity_id, duration_bucket(ms);
$$;
SELECT rebuild_sliding_windows();

-- The advancer and the query-time correction read the hourly rows of a few hours across all entities.
CREATE INDEX duration_histogram_by_hour ON duration_histogram (hour);

-- Whole-day histograms served the range queries before the windows; nothing reads them now.
DROP TABLE daily_duration_histogram;

-- Down Migration
CREATE TABLE daily_duration_histogram (
  source smallint NOT NULL,
  metric smallint NOT NULL,
  entity_id text NOT NULL,
  day date NOT NULL,
  ms integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (source, metric, entity_id, day, ms) INCLUDE (n)
);
INSERT INTO daily_duration_histogram (source, metric, entity_id, day, ms, n)
SELECT source, metric, entity_id, (hour AT TIME ZONE 'UTC')::date, ms, sum(n)
  FROM duration_histogram GROUP BY 1, 2, 3, 4, 5;
DROP INDEX duration_histogram_by_hour;
DROP FUNCTION rebuild_sliding_windows();
DROP TABLE hourly_source_counts;
DROP TABLE window_values;
DROP TABLE window_buckets;
DROP TABLE window_counts;
DROP TABLE window_state;
DROP FUNCTION duration_bucket(integer);
