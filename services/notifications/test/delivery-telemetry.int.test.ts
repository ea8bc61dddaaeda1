import { createKafka, createProducer, type KafkaClient, type Producer } from '@platform/kafka';
import {
  metricValue,
  scrapeMetrics,
  stackEnv,
  startHttpReceiver,
  startSmtpSink,
  waitUntil,
  type HttpReceiver,
  type IdentityUser,
  type JaegerSpan,
  type JaegerTrace,
  type MetricSample,
  type SmtpSink,
} from '@platform/testing';
import { SpanKind, withSpan } from '@platform/telemetry';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationEventsTopic } from '../src/events/notification-events-consumer.js';
import { testLogger } from './support/harness.js';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';

/**
 * Delivery telemetry of the real service process: its `/metrics` counts each attempt and final
 * outcome by channel type, and each attempt is a `notification.deliver <channel>` span in the trace
 * of the request (or event) that caused it, as a private Jaeger receives it over OTLP.
 */
let stack: ProcessStack;
let receiver: HttpReceiver;
let sink: SmtpSink;
let admin: IdentityUser;
let kafka: KafkaClient;
let producer: Producer;
/** The 503 test's notification: its retry (about 10 s later) is checked by the last test. */
let retried: { requestId: string; notificationId: string } | undefined;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: 'ok' });
  sink = await startSmtpSink();
  stack = await startProcessStack();
  admin = await stack.identity.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  const settings = await stack.request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: {
      webhook_enabled: true,
      webhook_url: `${receiver.url}/hook`,
      webhook_secret: 'telemetry',
      smtp_enabled: true,
      smtp_host: '127.0.0.1',
      smtp_port: sink.port,
      smtp_encryption: 'none',
      email_from_address: 'noreply@platform.test',
    },
  });
  expect(settings.body.code).toBe(0);
  kafka = createKafka({
    brokers: stackEnv.kafkaBrokers,
    clientId: 'delivery-telemetry-test',
    logger: testLogger,
  });
  producer = createProducer(kafka);
});

afterAll(async () => {
  await kafka?.disconnect();
  await stack?.stop();
  await receiver?.close();
  await sink?.close();
});

/** A global notification with a webhook delivery, through the gateway (retried while the service's settings cache is stale). */
async function notifyByWebhook(
  requestId = randomUUID(),
): Promise<{ requestId: string; notificationId: string }> {
  const created = await waitUntil(
    async () => {
      const response = await stack.request('POST', '/admin/notifications', {
        token: admin.token,
        headers: { 'x-request-id': requestId },
        json: {
          scope: 'global',
          type: 'test.telemetry',
          title: 'T',
          content: 'c',
          notify_channels: ['webhook'],
        },
      });
      return response.body.code === 0 ? response : undefined;
    },
    15_000,
    'the webhook channel never became usable',
    250,
  );
  return { requestId, notificationId: created.body.data.id as string };
}

const metrics = () => scrapeMetrics(stack.notifications.metricsUrl);
const webhook = (outcome: string) => ({ channel: 'webhook', outcome });

/** Waits until `name{labels}` grew by `by` over `before`, and answers the scrape that showed it. */
async function grown(before: MetricSample[], name: string, labels: Record<string, string>, by = 1) {
  const target = metricValue(before, name, labels) + by;
  return waitUntil(
    async () => {
      const now = await metrics();
      return metricValue(now, name, labels) >= target ? now : undefined;
    },
    20_000,
    `${name} ${JSON.stringify(labels)} never reached ${target}`,
    200,
  );
}

describe('delivery metrics on /metrics', () => {
  it('a success counts an ok attempt, a delivered delivery and its time to success', async () => {
    const before = await metrics();
    await notifyByWebhook();
    const after = await grown(before, 'notification_deliveries_total', webhook('delivered'));
    const delta = (name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('notification_delivery_attempts_total', webhook('ok'))).toBe(1);
    expect(delta('notification_delivery_seconds_count', { channel: 'webhook' })).toBe(1);
    expect(delta('notification_delivery_seconds_sum', { channel: 'webhook' })).toBeGreaterThan(0);
    expect(delta('notification_delivery_attempts_total', webhook('retryable_error'))).toBe(0);
    // Every series carries the service label and only closed-set labels.
    const series = after.filter((s) => s.name === 'notification_delivery_attempts_total');
    for (const sample of series)
      expect(Object.keys(sample.labels).sort()).toEqual(['channel', 'outcome', 'service']);
    expect(series[0]!.labels.service).toBe('notifications');
  });

  it('a retryable failure (503) counts a retryable_error attempt and no final outcome', async () => {
    receiver.script({ status: 503, body: 'maintenance' });
    const before = await metrics();
    retried = await notifyByWebhook();
    const after = await grown(before, 'notification_delivery_attempts_total', webhook('retryable_error'));
    const final = (labels: Record<string, string>) =>
      metricValue(after, 'notification_deliveries_total', labels) -
      metricValue(before, 'notification_deliveries_total', labels);
    expect(final(webhook('failed'))).toBe(0);
    expect(final(webhook('retries_exhausted'))).toBe(0);
  });

  it('a permanent failure (400) counts a permanent_error attempt and a failed delivery', async () => {
    receiver.script({ status: 400, body: 'bad request' });
    const before = await metrics();
    await notifyByWebhook();
    const after = await grown(before, 'notification_deliveries_total', webhook('failed'));
    expect(
      metricValue(after, 'notification_delivery_attempts_total', webhook('permanent_error')) -
        metricValue(before, 'notification_delivery_attempts_total', webhook('permanent_error')),
    ).toBe(1);
  });

  it('a 429 with Retry-After counts a rate_limited attempt and a vendor wait of at least that long', async () => {
    receiver.script({ status: 429, headers: { 'retry-after': '30' }, body: 'slow down' });
    const before = await metrics();
    await notifyByWebhook();
    const after = await grown(before, 'notification_rate_limit_waits_total', { channel: 'webhook' });
    const delta = (name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('notification_delivery_attempts_total', webhook('rate_limited'))).toBe(1);
    expect(
      delta('notification_rate_limit_wait_seconds_total', { channel: 'webhook' }),
    ).toBeGreaterThanOrEqual(30);
  });
});

const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;
const parentOf = (trace: JaegerTrace, span: JaegerSpan) => {
  const ref = span.references.find((r) => r.refType === 'CHILD_OF');
  return ref && trace.spans.find((s) => s.spanID === ref.spanID);
};
/** The span's ancestors' names, nearest first. */
function ancestry(trace: JaegerTrace, span: JaegerSpan): string[] {
  const names: string[] = [];
  for (let at = parentOf(trace, span); at; at = parentOf(trace, at)) names.push(at.operationName);
  return names;
}

/** The trace holding `notification.deliver <channel>` for this notification, once Jaeger has all of it. */
async function deliveryTrace(
  service: string,
  tags: Record<string, string>,
  notificationId?: string,
  channel = 'webhook',
) {
  return waitUntil(
    async () => {
      for (const found of await stack.jaeger.findTraces(service, tags)) {
        const trace = await stack.jaeger.trace(found.traceID);
        const deliver = trace?.spans.find(
          (s) =>
            s.operationName === `notification.deliver ${channel}` &&
            (!notificationId || tag(s, 'notification.id') === notificationId),
        );
        if (trace && deliver && ancestry(trace, deliver).length > 0 && parentOf(trace, deliver)) {
          return { trace, deliver };
        }
      }
      return undefined;
    },
    20_000,
    'no trace with the delivery span arrived in Jaeger',
    300,
  );
}

describe('delivery spans in Jaeger', () => {
  it('a webhook delivery is a span in the trace of the request that created the notification', async () => {
    const { requestId, notificationId } = await notifyByWebhook();
    const { trace, deliver } = await deliveryTrace('gateway', { request_id: requestId }, notificationId);
    expect(tag(deliver, 'notification.channel')).toBe('webhook');
    expect(tag(deliver, 'notification.delivery.attempt')).toBe(1);
    expect(tag(deliver, 'notification.delivery.outcome')).toBe('ok');
    expect(trace.processes[deliver.processID]!.serviceName).toBe('notifications');
    // deliver ← the task's consumer span ← its producer span ← … the RPC … ← the gateway's span.
    const chain = ancestry(trace, deliver);
    expect(chain).toEqual([
      `${stack.topicPrefix}queue.default process`,
      `${stack.topicPrefix}queue.default publish`,
      'platform.notifications.v1.NotificationsService/CreateNotification', // server, in notifications
      'platform.notifications.v1.NotificationsService/CreateNotification', // client, in the gateway
      'POST /api/v1/admin/notifications',
    ]);
  });

  it('a failed attempt is a span marked failed, with its outcome', async () => {
    receiver.script({ status: 400, body: 'no' });
    const { requestId, notificationId } = await notifyByWebhook();
    const { deliver } = await deliveryTrace('gateway', { request_id: requestId }, notificationId);
    expect(tag(deliver, 'notification.delivery.outcome')).toBe('permanent_error');
    expect(tag(deliver, 'otel.status_code')).toBe('ERROR');
    expect(tag(deliver, 'notification.delivery.error')).toBe('delivery_http_status');
  });

  it("an automatic notification's delivery is in the trace of the event's sender (per-message span in the batch)", async () => {
    const configured = await stack.request('PUT', '/admin/site-settings/auto-notifications', {
      token: admin.token,
      json: { enabled_types: ['security.password_changed'], channels: ['webhook'] },
    });
    expect(configured.body.code).toBe(0);
    const marker = randomUUID();
    await withSpan('test event sender', { kind: SpanKind.INTERNAL, attributes: { marker } }, () =>
      producer.publish(notificationEventsTopic(stack.topicPrefix), {
        key: admin.id,
        id: randomUUID(),
        value: {
          id: randomUUID(),
          type: 'security.password_changed',
          scope: 'user',
          team_id: '',
          user_id: admin.id,
          title: 'password changed',
          content: 'c',
          level: 'high',
          link_url: '',
          occurred_at: new Date().toISOString(),
          source_service: 'test',
        },
      }),
    );
    const { trace, deliver } = await deliveryTrace('gateway', { marker });
    const chain = ancestry(trace, deliver);
    expect(chain.slice(0, 2)).toEqual([
      `${stack.topicPrefix}queue.default process`,
      `${stack.topicPrefix}queue.default publish`,
    ]);
    // The event's own span (child of its sender), not the batch span, carries the scheduling.
    const eventSpan = trace.spans.find((s) => s.operationName === chain[2]);
    expect(chain[2]).toBe(`${notificationEventsTopic(stack.topicPrefix)} process`);
    expect(eventSpan!.references.some((r) => r.refType === 'FOLLOWS_FROM')).toBe(true);
    expect(chain.slice(3)).toEqual([
      `${notificationEventsTopic(stack.topicPrefix)} publish`,
      'test event sender',
    ]);
  });

  it('a retry submitted by the reconciler joins the trace of the request that scheduled the delivery', async () => {
    expect(retried).toBeDefined();
    const attempts = await waitUntil(
      async () => {
        const [found] = await stack.jaeger.findTraces('gateway', { request_id: retried!.requestId });
        const trace = found && (await stack.jaeger.trace(found.traceID));
        const spans = (trace?.spans ?? []).filter(
          (s) =>
            s.operationName === 'notification.deliver webhook' &&
            tag(s, 'notification.id') === retried!.notificationId,
        );
        return spans.length === 2 ? { trace: trace!, spans } : undefined;
      },
      30_000,
      'the retry never showed up in the original trace',
      500,
    );
    const byAttempt = attempts.spans.sort(
      (a, b) =>
        Number(tag(a, 'notification.delivery.attempt')) - Number(tag(b, 'notification.delivery.attempt')),
    );
    expect(byAttempt.map((s) => tag(s, 'notification.delivery.outcome'))).toEqual(['retryable_error', 'ok']);
    expect(byAttempt.map((s) => tag(s, 'notification.delivery.attempt'))).toEqual([1, 2]);
    // Both under the request: the retry's task was published under the delivery's stored origin.
    for (const span of byAttempt) {
      const chain = ancestry(attempts.trace, span);
      expect(chain[chain.length - 1]).toBe('POST /api/v1/admin/notifications');
      expect(chain[1]).toBe(`${stack.topicPrefix}queue.default publish`);
    }
  });

  it('an e-mail delivery is a span with an `smtp send` CLIENT span per mail below it', async () => {
    const requestId = randomUUID();
    const before = await metrics();
    const created = await waitUntil(
      async () => {
        const response = await stack.request('POST', '/admin/notifications', {
          token: admin.token,
          headers: { 'x-request-id': requestId },
          json: {
            scope: 'user',
            user_id: admin.id,
            type: 't',
            title: 'Mail',
            content: 'c',
            notify_channels: ['email'],
          },
        });
        return response.body.code === 0 ? response : undefined;
      },
      15_000,
      'the e-mail channel never became usable',
      250,
    );
    await sink.waitForMail(admin.email);
    const { trace, deliver } = await deliveryTrace(
      'gateway',
      { request_id: requestId },
      created.body.data.id as string,
      'email',
    );
    const smtp = trace.spans.filter((s) => s.operationName === 'smtp send' && parentOf(trace, s) === deliver);
    expect(smtp).toHaveLength(1);
    expect(tag(smtp[0]!, 'span.kind')).toBe('client');
    expect(tag(smtp[0]!, 'server.port')).toBe(sink.port);
    const after = await grown(before, 'notification_deliveries_total', {
      channel: 'email',
      outcome: 'delivered',
    });
    expect(
      metricValue(after, 'notification_delivery_attempts_total', { channel: 'email', outcome: 'ok' }) -
        metricValue(before, 'notification_delivery_attempts_total', { channel: 'email', outcome: 'ok' }),
    ).toBe(1);
  });
});
