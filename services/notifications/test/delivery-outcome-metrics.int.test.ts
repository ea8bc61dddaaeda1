import {
  metricValue,
  parseMetrics,
  startHttpReceiver,
  testClock,
  waitUntil,
  type HttpReceiver,
} from '@platform/testing';
import { metricsRegistry } from '@platform/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notification, startDeliveryHarness, type DeliveryHarness } from './support/delivery-harness.js';

/**
 * The outcomes the process test cannot wait for, on the delivery side in-process (its metrics are
 * this process's registry): a retry schedule used up (the test clock jumps over 24 h), and our own
 * per-destination limiter making a Slack burst wait.
 */
const clock = testClock();
let h: DeliveryHarness;
let receiver: HttpReceiver;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: 'ok' });
  h = await startDeliveryHarness({}, { now: clock.now });
  h.settings.set({
    webhook_enabled: true,
    webhook_url: `${receiver.url}/hook`,
    slack_enabled: true,
    slack_webhook_url: `${receiver.url}/slack/${crypto.randomUUID()}`,
  });
  await h.startWorkers();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

const scrape = async () => parseMetrics(await metricsRegistry.metrics());

async function statusOf(id: string) {
  return (await h.delivery.repo.get(id))?.status;
}

describe('delivery outcome metrics', () => {
  it('a webhook that keeps failing: 8 retryable_error attempts, then one retries_exhausted delivery', async () => {
    receiver.script(...Array.from({ length: 8 }, () => ({ status: 500 })));
    const before = await scrape();
    const n = notification();
    await h.delivery.port.scheduleDeliveries(n, ['webhook']);
    const [view] = (await h.delivery.port.deliveriesFor([n.id], 'en')).get(n.id)!;
    for (let attempt = 1; attempt < 8; attempt += 1) {
      const doc = await waitUntil(
        async () => {
          const d = await h.delivery.repo.get(view!.id);
          return d?.status === 'pending' && d.retry_count === attempt ? d : undefined;
        },
        20_000,
        `attempt ${attempt} never failed`,
      );
      clock.advance(doc.next_attempt_at.getTime() - clock.now() + 1);
    }
    await waitUntil(async () => (await statusOf(view!.id)) === 'failed', 20_000, 'never failed for good');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(
      delta('notification_delivery_attempts_total', { channel: 'webhook', outcome: 'retryable_error' }),
    ).toBe(8);
    expect(delta('notification_deliveries_total', { channel: 'webhook', outcome: 'retries_exhausted' })).toBe(
      1,
    );
    expect(delta('notification_deliveries_total', { channel: 'webhook', outcome: 'failed' })).toBe(0);
    expect(delta('notification_delivery_seconds_count', { channel: 'webhook' })).toBe(0);
  });

  it('a Slack burst to one robot waits for its slots in place: counted waits, all delivered', async () => {
    const before = await scrape();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const n = notification();
      await h.delivery.port.scheduleDeliveries(n, ['slack']);
      ids.push((await h.delivery.port.deliveriesFor([n.id], 'en')).get(n.id)![0]!.id);
    }
    await waitUntil(
      async () => (await Promise.all(ids.map(statusOf))).every((s) => s === 'success'),
      30_000,
      'the burst did not complete',
    );
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('notification_deliveries_total', { channel: 'slack', outcome: 'delivered' })).toBe(3);
    expect(delta('notification_delivery_attempts_total', { channel: 'slack', outcome: 'ok' })).toBe(3);
    // One a second: the 2nd and 3rd waited (in place, at most inlineWaitMs each time).
    expect(delta('notification_rate_limit_waits_total', { channel: 'slack' })).toBeGreaterThanOrEqual(2);
    const waited = delta('notification_rate_limit_wait_seconds_total', { channel: 'slack' });
    expect(waited).toBeGreaterThan(0.5);
    expect(waited).toBeLessThan(6);
  });
});
