import { startHttpReceiver, testClock, waitUntil, type HttpReceiver } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelName, DeliveryView } from '../src/domain/delivery-port.js';
import { notification, startDeliveryHarness, type DeliveryHarness } from './support/delivery-harness.js';

/**
 * Deliveries end to end on the real stack: stored `pending` in FerretDB, submitted to the
 * `default` queue on Kafka, claimed and sent by the worker, retried by the reconciler on the
 * channel's schedule (the test clock jumps instead of waiting hours).
 */
const clock = testClock();
let h: DeliveryHarness;
let receiver: HttpReceiver;
const HOUR = 3_600_000;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: { errcode: 0, errmsg: 'ok' } });
  h = await startDeliveryHarness({}, { now: clock.now });
  await h.startWorkers();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});
beforeEach(() => {
  h.settings.values = {
    webhook_enabled: true,
    webhook_url: `${receiver.url}/hook`,
    webhook_secret: 'flow-secret',
    dingtalk_enabled: true,
    dingtalk_webhook_url: `${receiver.url}/robot/send?access_token=t`,
  };
});

async function schedule(channels: ChannelName[]) {
  const n = notification();
  await h.delivery.port.scheduleDeliveries(n, channels);
  return n.id;
}

async function views(id: string, locale = 'en'): Promise<DeliveryView[]> {
  return (await h.delivery.port.deliveriesFor([id], locale)).get(id) ?? [];
}

const settled = (id: string, status: DeliveryView['status'], check?: (v: DeliveryView) => boolean) =>
  waitUntil(
    async () => {
      const [view] = await views(id);
      return view && view.status === status && (!check || check(view)) ? view : undefined;
    },
    30_000,
    `delivery never became ${status}`,
  );

const requestsFor = (id: string) => receiver.requests.filter((r) => r.headers['webhook-id'] === id);

describe('delivery lifecycle', () => {
  it('pending → success with sent_at, one request carrying the delivery id', async () => {
    const id = await schedule(['webhook']);
    const [created] = await views(id);
    expect(created).toMatchObject({ channel: 'webhook', retry_count: 0, sent_at: null, error_message: null });
    expect(['pending', 'sending', 'success']).toContain(created!.status);
    const done = await settled(id, 'success');
    expect(done.sent_at).toBeInstanceOf(Date);
    expect(done.retry_count).toBe(0);
    expect(requestsFor(done.id)).toHaveLength(1);
  });

  it('a transient failure is retried on the schedule; the localized error shows meanwhile', async () => {
    receiver.script({ status: 503, body: 'maintenance' });
    const id = await schedule(['webhook']);
    const waiting = await settled(id, 'pending', (v) => v.retry_count === 1);
    expect(waiting.error_message).toBe('The receiver answered HTTP 503: maintenance');
    expect((await views(id, 'zh'))[0]!.error_message).toBe('接收方返回 HTTP 503：maintenance');
    clock.advance(HOUR); // past the first retry's 10 s ± jitter
    const done = await settled(id, 'success');
    expect(done).toMatchObject({ retry_count: 1, error_message: null });
    expect(requestsFor(done.id)).toHaveLength(2);
  });

  it('a webhook gives up after 8 attempts spread over more than 24 hours, all with the same webhook-id', async () => {
    receiver.script(...Array.from({ length: 8 }, () => ({ status: 500 })));
    const id = await schedule(['webhook']);
    const [first] = await views(id);
    const started = clock.now();
    let spanMs = 0;
    for (let attempt = 1; attempt < 8; attempt += 1) {
      await settled(id, 'pending', (v) => v.retry_count === attempt);
      const doc = await h.delivery.repo.get(first!.id);
      spanMs = doc!.next_attempt_at.getTime() - started;
      clock.advance(doc!.next_attempt_at.getTime() - clock.now() + 1);
    }
    const failed = await settled(id, 'failed');
    expect(failed.retry_count).toBe(8);
    expect(failed.error_message).toBe('The receiver answered HTTP 500: ');
    expect(spanMs).toBeGreaterThanOrEqual(24 * HOUR);
    const sent = requestsFor(first!.id);
    expect(sent).toHaveLength(8);
    expect(new Set(sent.map((r) => r.headers['webhook-timestamp'])).size).toBeGreaterThan(1);
  });

  it('honours Retry-After beyond the schedule', async () => {
    receiver.script({ status: 429, headers: { 'retry-after': '7200' } });
    const id = await schedule(['webhook']);
    const waiting = await settled(id, 'pending', (v) => v.retry_count === 1);
    const doc = await h.delivery.repo.get(waiting.id);
    expect(doc!.next_attempt_at.getTime() - doc!.updated_at.getTime()).toBeGreaterThanOrEqual(7_200_000);
    clock.advance(2 * HOUR + 1_000);
    await settled(id, 'success');
  });

  it('a permanent rejection fails at once; DingTalk errcode ≠ 0 on HTTP 200 is a failure, never sent', async () => {
    receiver.script({ status: 400, body: 'bad payload' });
    const id = await schedule(['webhook']);
    const failed = await settled(id, 'failed');
    expect(failed).toMatchObject({
      retry_count: 1,
      sent_at: null,
      error_message: 'The receiver answered HTTP 400: bad payload',
    });

    receiver.script({ status: 200, body: { errcode: 310000, errmsg: 'keywords not in content' } });
    const robot = await schedule(['dingtalk']);
    const rejected = await settled(robot, 'failed');
    expect(rejected.error_message).toBe(
      'dingtalk rejected the message (code 310000): keywords not in content',
    );
    expect(rejected.sent_at).toBeNull();
  });

  it('a channel switched off after creation fails its delivery with the reason', async () => {
    h.settings.set({ webhook_enabled: false });
    const id = await schedule(['webhook']);
    const failed = await settled(id, 'failed');
    expect(failed.error_message).toContain('webhook_not_enabled');
  });
});

describe('validateChannels', () => {
  it('names the first channel that cannot deliver with the spec key (all twelve)', async () => {
    const channels: [ChannelName, string, Record<string, unknown>][] = [
      ['email', 'smtp', { smtp_host: 'mail.test', email_from_address: 'n@test.io' }],
      [
        'dingtalk',
        'dingtalk',
        { dingtalk_webhook_url: 'https://oapi.dingtalk.com/robot/send?access_token=x' },
      ],
      ['wechat', 'wechat', { wechat_webhook_url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x' }],
      ['feishu', 'feishu', { feishu_webhook_url: 'https://open.feishu.cn/open-apis/bot/v2/hook/x' }],
      ['webhook', 'webhook', { webhook_url: 'https://hooks.test/in' }],
      ['slack', 'slack', { slack_webhook_url: 'https://hooks.slack.com/services/x' }],
    ];
    for (const [channel, prefix, configured] of channels) {
      h.settings.values = {};
      await expect(h.delivery.port.validateChannels([channel])).rejects.toMatchObject({
        code: 1002,
        msgKey: `${prefix}_not_enabled`,
      });
      h.settings.values = { [`${prefix}_enabled`]: true };
      await expect(h.delivery.port.validateChannels([channel])).rejects.toMatchObject({
        msgKey: `${prefix}_not_configured`,
      });
      h.settings.values = { [`${prefix}_enabled`]: true, ...configured };
      await expect(h.delivery.port.validateChannels([channel])).resolves.toBeUndefined();
    }
    // App modes need their own credentials.
    h.settings.values = {
      feishu_enabled: true,
      feishu_notification_type: 'app',
      feishu_webhook_url: 'https://x.test',
    };
    await expect(h.delivery.port.validateChannels(['feishu'])).rejects.toMatchObject({
      msgKey: 'feishu_not_configured',
    });
  });
});
