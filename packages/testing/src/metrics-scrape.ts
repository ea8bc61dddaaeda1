/** One sample of a Prometheus text exposition: metric name, labels and value. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses Prometheus text format (comments skipped; label values unescaped). */
export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, raw] of (match[2] ?? '').matchAll(LABEL)) {
      labels[name!] = raw!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** A process's `/metrics`, fetched now and parsed. */
export async function scrapeMetrics(url: string): Promise<MetricSample[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return parseMetrics(await response.text());
}

/**
 * The sum of the samples named `name` whose labels include `labels` (0 when none: a counter not
 * yet incremented for those labels has no sample).
 */
export function metricValue(
  samples: readonly MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
