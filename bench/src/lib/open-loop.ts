import * as hdr from 'hdr-histogram-js';

export interface LatencyReport {
  requests: number;
  errors: number;
  throughput: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/**
 * Calls `send` at a fixed rate whatever the outstanding calls (open loop): a slow server does not
 * slow the generator down, so its queueing shows in the latencies instead of being hidden
 * (no coordinated omission). Latency is measured from the moment the call was sent, like
 * autocannon does on the HTTP side, so the two columns compare like with like.
 */
export async function openLoop(
  send: () => Promise<unknown>,
  ratePerSecond: number,
  durationSeconds: number,
): Promise<LatencyReport> {
  const histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
  const total = Math.round(ratePerSecond * durationSeconds);
  const intervalMs = 1000 / ratePerSecond;
  const started = performance.now();
  let issued = 0;
  let errors = 0;
  const inFlight = new Set<Promise<unknown>>();

  while (issued < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor((now - started) / intervalMs) + 1);
    for (; issued < due; issued++) {
      const sentAt = performance.now();
      const call = send().then(
        () => histogram.recordValue(Math.max(1, Math.round((performance.now() - sentAt) * 1000))),
        () => {
          errors++;
        },
      );
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  const micros = (value: number) => +(value / 1000).toFixed(3);
  return {
    requests: total,
    errors,
    throughput: Math.round((total - errors) / elapsed),
    p50: micros(histogram.getValueAtPercentile(50)),
    p99: micros(histogram.getValueAtPercentile(99)),
    p999: micros(histogram.getValueAtPercentile(99.9)),
    max: micros(histogram.maxValue),
  };
}
