import { describe, expect, it } from 'vitest';
import { RETRY_SCHEDULES, nextRetryDelay, scheduleSpanMs } from '../src/domain/delivery/retry-policy.js';
import { isTransientStatus, retryAfterMs } from '../src/adapters/channels/http-send.js';
import { renderWebhookBody } from '../src/adapters/channels/webhook.js';

const HOUR = 3_600_000;
const lowest = () => 0;
const highest = () => 0.999_999;

describe('retry schedules', () => {
  it('webhooks: 8 attempts spread over at least 24 hours even at the lowest jitter', () => {
    const webhook = RETRY_SCHEDULES.webhook;
    expect(webhook.maxAttempts).toBeGreaterThanOrEqual(8);
    expect(scheduleSpanMs(webhook, lowest)).toBeGreaterThanOrEqual(24 * HOUR);
    expect(nextRetryDelay(webhook, 8, undefined, lowest)).toBeNull();
    // Exponential: each delay at least the one before.
    const delays = Array.from({ length: 7 }, (_v, i) =>
      nextRetryDelay(webhook, i + 1, undefined, () => 0.5)!,
    );
    for (let i = 1; i < delays.length; i += 1) expect(delays[i]!).toBeGreaterThan(delays[i - 1]!);
  });

  it('chat robots give up within half an hour; e-mail within two and a half hours', () => {
    for (const channel of ['slack', 'dingtalk', 'wechat', 'feishu'] as const) {
      expect(scheduleSpanMs(RETRY_SCHEDULES[channel], highest)).toBeLessThan(0.5 * HOUR);
    }
    expect(scheduleSpanMs(RETRY_SCHEDULES.email, highest)).toBeLessThan(2.5 * HOUR);
  });

  it('jitter stays within its band; Retry-After is never undercut (capped at a day)', () => {
    const slack = RETRY_SCHEDULES.slack;
    expect(nextRetryDelay(slack, 1, undefined, lowest)).toBe(4_000);
    expect(nextRetryDelay(slack, 1, undefined, highest)).toBeLessThanOrEqual(6_000);
    expect(nextRetryDelay(slack, 1, 120_000, lowest)).toBe(120_000);
    expect(nextRetryDelay(slack, 1, 10 * 24 * HOUR, lowest)).toBe(24 * HOUR);
  });
});

describe('answer classification', () => {
  it('408, 425, 429 and 5xx are transient; other statuses are final', () => {
    for (const status of [408, 425, 429, 500, 502, 503, 504]) expect(isTransientStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 413, 422]) expect(isTransientStatus(status)).toBe(false);
  });

  it('Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-23T22:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 22:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('a template stays valid JSON whatever the text holds', () => {
    const body = renderWebhookBody('{"a": "{{title}}", "b": "{{content}}", "c": "{{link_url}}"}', {
      deliveryId: 'd',
      title: 'quote " backslash \\ tab \t',
      content: 'line\nbreak \u2028 <b>',
      linkUrl: null,
    });
    expect(JSON.parse(body)).toEqual({
      a: 'quote " backslash \\ tab \t',
      b: 'line\nbreak \u2028 <b>',
      c: '',
    });
  });
});
