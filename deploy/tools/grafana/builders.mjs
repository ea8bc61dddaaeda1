// Panel builders shared by the dashboards of deploy/tools/grafana-dashboards.mjs.
export const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
export const RI = '$__rate_interval';
/** The run event stream and the vendor-bound routes: long by nature, kept out of latency panels. */
export const SLOW_ROUTES =
  '.*/stream|.*/admin/models/discover|.*/admin/models/:model_id/test|.*/admin/site-settings/test-.*';
export const SVC = 'service=~"$service"';

export const q = (expr, legendFormat) => ({ expr, legendFormat });
export const quantiles = (metric, selector, by = '') =>
  [0.5, 0.95, 0.99].map((quantile) =>
    q(
      `histogram_quantile(${quantile}, sum by (le${by ? `, ${by}` : ''}) (rate(${metric}_bucket{${selector}}[${RI}])))`,
      `p${quantile * 100}${by ? ` {{${by}}}` : ''}`,
    ),
  );
export const ts = (title, description, unit, targets, options = {}) => ({
  type: 'timeseries',
  title,
  description,
  unit,
  targets,
  ...options,
});
export const stacked = { stack: true };

/** Pools, Redis, event loop, GC and memory of the processes `selector` picks. */
export function resourcePanels(selector) {
  return [
    ts(
      'Postgres pool in use',
      'Connections in use against the pool size, per process and pool (alert PgPoolSaturated).',
      'short',
      [
        q(
          `sum by (service, instance, pool) (pg_pool_connections{${selector},state="in_use"})`,
          'in use {{instance}} {{pool}}',
        ),
        q(
          `max by (service, instance, pool) (pg_pool_max_connections{${selector}})`,
          'max {{instance}} {{pool}}',
        ),
      ],
    ),
    ts('Postgres pool waiting', 'Callers waiting for a connection.', 'short', [
      q(`sum by (service, instance, pool) (pg_pool_waiting_clients{${selector}})`, '{{instance}} {{pool}}'),
    ]),
    ts('Redis command p99', 'p99 per Redis command.', 's', [
      q(
        `histogram_quantile(0.99, sum by (le, command) (rate(redis_command_duration_seconds_bucket{${selector}}[${RI}])))`,
        '{{command}}',
      ),
    ]),
    ts('Event-loop lag p99', 'Node event-loop delay (alert NodeEventLoopLagHigh at 200 ms).', 's', [
      q(
        `max by (service, instance) (nodejs_eventloop_lag_p99_seconds{${selector}})`,
        '{{service}} {{instance}}',
      ),
    ]),
    ts('GC time', 'Seconds per second spent in garbage collection, by kind.', 'percentunit', [
      q(
        `sum by (service, kind) (rate(nodejs_gc_duration_seconds_sum{${selector}}[${RI}]))`,
        '{{service}} {{kind}}',
      ),
    ]),
    ts('Resident memory', 'RSS per process.', 'bytes', [
      q(
        `max by (service, instance) (process_resident_memory_bytes{${selector}})`,
        '{{service}} {{instance}}',
      ),
    ]),
  ];
}
