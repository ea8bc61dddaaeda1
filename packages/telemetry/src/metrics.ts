import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process. Every metric carries `service` (a default label set by
 * `initMetrics`) so alert rules and dashboards do not depend on how the scraper names its jobs.
 * Label values are always from closed sets (route templates, method names, codes classes, topic
 * names…): never user ids, run ids or raw URLs — docs/operations.md "Label cardinality".
 */
export const metricsRegistry = new Registry();

/** Resolves 1 ms … 10 s, the range the issue asks latency histograms to cover. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** For durations that run long (workflow runs, queue waits, delivery time to success): 10 ms … 1 h. */
export const LONG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800, 3600];

let initialised: string | undefined;

/** Names the process's metrics (`service` label) and turns on Node's default metrics once. */
export function initMetrics(service: string): void {
  if (initialised) return;
  initialised = service;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
}

interface MetricSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

// Modules may be loaded more than once in tests (and several stores may ask for the same metric):
// the first registration wins and later callers share it, instead of prom-client's "already
// registered" throw.
function existing<T>(name: string): T | undefined {
  return metricsRegistry.getSingleMetric(name) as T | undefined;
}

export function counter<L extends string>(spec: MetricSpec<L>): Counter<L> {
  return (
    existing<Counter<L>>(spec.name) ??
    new Counter<L>({ ...spec, labelNames: spec.labelNames ?? [], registers: [metricsRegistry] })
  );
}

export function gauge<L extends string>(
  spec: MetricSpec<L> & { collect?: (this: Gauge<L>) => void | Promise<void> },
): Gauge<L> {
  return (
    existing<Gauge<L>>(spec.name) ??
    new Gauge<L>({ ...spec, labelNames: spec.labelNames ?? [], registers: [metricsRegistry] })
  );
}

export function histogram<L extends string>(
  spec: MetricSpec<L> & { buckets?: readonly number[] },
): Histogram<L> {
  return (
    existing<Histogram<L>>(spec.name) ??
    new Histogram<L>({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      buckets: [...(spec.buckets ?? LATENCY_BUCKETS)],
      registers: [metricsRegistry],
    })
  );
}

/** Seconds since `startedAt` (a `performance.now()` reading). */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}
