import { createHmac } from 'node:crypto';
import { startHttpReceiver, type HttpReceiver } from '@platform/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendDingtalkRobot } from '../src/adapters/channels/dingtalk.js';
import { sendFeishuRobot } from '../src/adapters/channels/feishu.js';
import { SendFailure } from '../src/domain/delivery/delivery-ports.js';
import { sendSlack } from '../src/adapters/channels/slack.js';
import { sendWebhook, type WebhookSettings } from '../src/adapters/channels/webhook.js';
import { sendWecomRobot } from '../src/adapters/channels/wecom.js';

/**
 * Each chat sender against a local server that checks the exact request the vendor expects, and
 * the vendor's answers that mean "not sent" (HTTP 200 with a non-zero errcode/code).
 */
const NOW = Date.parse('2026-11-23T22:00:00Z');
const context = { http: { allowPrivateNetworks: true, timeoutMs: 2_000 }, now: () => NOW };
const message = {
  deliveryId: '6f1d3c1e-7d8a-4b7e-9a55-2f0c8b1e0d11',
  title: 'Disk "almost" full',
  content: 'Line one\nLine <two> & "three" \\ done',
  linkUrl: 'https://example.com/alerts/1?x=1&y=2',
};
let receiver: HttpReceiver;

beforeAll(async () => {
  receiver = await startHttpReceiver({
    status: 200,
    body: { errcode: 0, errmsg: 'ok', code: 0, msg: 'success' },
  });
});
afterAll(() => receiver.close());
beforeEach(() => receiver.requests.splice(0));

const failureOf = async (promise: Promise<unknown>): Promise<SendFailure> => {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SendFailure);
  return error as SendFailure;
};

const webhook = (overrides: Partial<WebhookSettings> = {}): WebhookSettings => ({
  webhook_url: `${receiver.url}/hooks/in?source=platform`,
  webhook_method: 'POST',
  webhook_headers: { Authorization: 'Bearer receiver-token', 'X-Tenant': 'acme' },
  webhook_body_template: '',
  webhook_secret: 'shh-very-secret',
  ...overrides,
});

describe('generic webhook', () => {
  it('POSTs the template with JSON-escaped placeholders, the configured headers and both signature schemes', async () => {
    const template = '{"text": "{{title}}", "body": "{{content}}", "url": "{{ link_url }}", "fixed": 1}';
    await sendWebhook(webhook({ webhook_body_template: template }), message, context);
    const [request] = await receiver.waitForRequests(1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/in?source=platform');
    const raw = request!.body.toString('utf8');
    // Valid JSON whatever the content holds: quotes, backslashes, newlines, angle brackets.
    expect(JSON.parse(raw)).toEqual({
      text: message.title,
      body: message.content,
      url: message.linkUrl,
      fixed: 1,
    });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe('Bearer receiver-token');
    expect(request!.headers['x-tenant']).toBe('acme');
    // The spec's two headers: HMAC-SHA256 of the raw body.
    const hex = createHmac('sha256', 'shh-very-secret').update(request!.body).digest('hex');
    expect(request!.headers['x-webhook-signature']).toBe(`sha256=${hex}`);
    expect(request!.headers['x-webhook-signature-256']).toBe(hex);
    // Standard Webhooks: id = the delivery, Unix seconds, verified by the standard library.
    expect(request!.headers['webhook-id']).toBe(message.deliveryId);
    expect(request!.headers['webhook-timestamp']).toBe(String(NOW / 1000));
    const verifier = new Webhook(Buffer.from('shh-very-secret').toString('base64'));
    const headers = {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    };
    // The library refuses stale timestamps; check at the time the message was signed.
    const realNow = Date.now;
    Date.now = () => NOW;
    try {
      expect(verifier.verify(raw, headers)).toMatchObject({ fixed: 1 });
      expect(() => verifier.verify(raw.replace('"fixed": 1', '"fixed": 2'), headers)).toThrow();
    } finally {
      Date.now = realNow;
    }
  });

  it('sends the documented default body without a template, and no signatures without a secret', async () => {
    await sendWebhook(
      webhook({ webhook_secret: '', webhook_headers: {} }),
      { ...message, linkUrl: null },
      context,
    );
    const [request] = await receiver.waitForRequests(1);
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({
      event: 'notification',
      id: message.deliveryId,
      title: message.title,
      content: message.content,
      link_url: null,
    });
    expect(request!.headers['webhook-id']).toBe(message.deliveryId);
    expect(request!.headers['x-webhook-signature']).toBeUndefined();
    expect(request!.headers['webhook-signature']).toBeUndefined();
  });

  it('GET carries the payload in the query and signs that query string; a whsec_ secret is used as the standard key', async () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    await sendWebhook(webhook({ webhook_method: 'GET', webhook_secret: secret }), message, context);
    const [request] = await receiver.waitForRequests(1);
    expect(request!.method).toBe('GET');
    expect(request!.body.length).toBe(0);
    const url = new URL(request!.path, receiver.url);
    expect(url.searchParams.get('source')).toBe('platform');
    expect(url.searchParams.get('title')).toBe(message.title);
    expect(url.searchParams.get('content')).toBe(message.content);
    expect(url.searchParams.get('link_url')).toBe(message.linkUrl);
    const signed = url.search.slice(1);
    expect(request!.headers['x-webhook-signature-256']).toBe(
      createHmac('sha256', secret).update(signed).digest('hex'),
    );
    // The standard library's own signer, keyed the standard way (base64 after whsec_).
    const expected = new Webhook(secret).sign(message.deliveryId, new Date(NOW), signed);
    expect(request!.headers['webhook-signature']).toBe(expected);
  });

  it('classifies answers: 429 with Retry-After and 5xx transient, other 4xx permanent, a hang is a timeout', async () => {
    receiver.script(
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 503 },
      { status: 410 },
      { delayMs: 5_000 },
    );
    const throttled = await failureOf(sendWebhook(webhook(), message, context));
    expect(throttled).toMatchObject({ transient: true, retryAfterMs: 120_000, key: 'delivery_http_status' });
    expect((await failureOf(sendWebhook(webhook(), message, context))).transient).toBe(true);
    const gone = await failureOf(sendWebhook(webhook(), message, context));
    expect(gone).toMatchObject({ transient: false, params: { status: 410 } });
    const slow = await failureOf(sendWebhook(webhook(), message, context));
    expect(slow).toMatchObject({ transient: true, key: 'delivery_timeout' });
  });

  it('refuses destinations outside the rules: other schemes, metadata addresses, private ones unless allowed', async () => {
    const strict = { ...context, http: { ...context.http, allowPrivateNetworks: false } };
    expect(await failureOf(sendWebhook(webhook(), message, strict))).toMatchObject({
      transient: false,
      key: 'delivery_url_refused',
    });
    const metadata = webhook({ webhook_url: 'http://169.254.169.254/latest/meta-data' });
    expect((await failureOf(sendWebhook(metadata, message, context))).key).toBe('delivery_url_refused');
    const file = webhook({ webhook_url: 'file:///etc/passwd' });
    expect((await failureOf(sendWebhook(file, message, context))).key).toBe('delivery_url_refused');
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('chat robots', () => {
  it('Slack: POST {text} in mrkdwn with &, <, > escaped and the link', async () => {
    await sendSlack(`${receiver.url}/services/T000/B000/XXXX`, message, context);
    const [request] = await receiver.waitForRequests(1);
    expect(request!.path).toBe('/services/T000/B000/XXXX');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({
      text: `*Disk "almost" full*\nLine one\nLine &lt;two&gt; &amp; "three" \\ done\n<${message.linkUrl}>`,
    });
  });

  it('DingTalk: timestamp and sign on the URL, a markdown message; errcode ≠ 0 is a failure', async () => {
    await sendDingtalkRobot(`${receiver.url}/robot/send?access_token=tok`, 'SECabc', message, context);
    const [request] = await receiver.waitForRequests(1);
    const url = new URL(request!.path, receiver.url);
    expect(url.pathname).toBe('/robot/send');
    expect(url.searchParams.get('access_token')).toBe('tok');
    expect(url.searchParams.get('timestamp')).toBe(String(NOW));
    const expected = createHmac('sha256', 'SECabc').update(`${NOW}\nSECabc`).digest('base64');
    expect(url.searchParams.get('sign')).toBe(expected);
    // The raw query carries the signature URL-encoded (base64 has + / =).
    expect(request!.path).toContain(`sign=${encodeURIComponent(expected)}`);
    const body = JSON.parse(request!.body.toString('utf8'));
    expect(body).toEqual({
      msgtype: 'markdown',
      markdown: {
        title: message.title,
        text: `### ${message.title}\n\n${message.content}\n\n[${message.linkUrl}](${message.linkUrl})`,
      },
    });

    receiver.script({ status: 200, body: { errcode: 310000, errmsg: 'sign not match' } });
    const rejected = await failureOf(
      sendDingtalkRobot(`${receiver.url}/robot/send?access_token=tok`, 'SECabc', message, context),
    );
    expect(rejected).toMatchObject({
      transient: false,
      key: 'delivery_vendor_rejected',
      params: { code: 310000 },
    });
    receiver.script({ status: 200, body: { errcode: 130101, errmsg: 'send too fast' } });
    const throttled = await failureOf(
      sendDingtalkRobot(`${receiver.url}/robot/send?access_token=tok`, '', message, context),
    );
    expect(throttled).toMatchObject({ transient: true, retryAfterMs: 600_000 });
  });

  it('WeCom: a markdown message to the robot key; errcode ≠ 0 is a failure', async () => {
    await sendWecomRobot(`${receiver.url}/cgi-bin/webhook/send?key=abc`, message, context);
    const [request] = await receiver.waitForRequests(1);
    expect(request!.path).toBe('/cgi-bin/webhook/send?key=abc');
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({
      msgtype: 'markdown',
      markdown: {
        content: `### ${message.title}\n\n${message.content}\n\n[${message.linkUrl}](${message.linkUrl})`,
      },
    });
    receiver.script({ status: 200, body: { errcode: 93000, errmsg: 'invalid webhook url' } });
    expect(await failureOf(sendWecomRobot(`${receiver.url}/x`, message, context))).toMatchObject({
      transient: false,
    });
    receiver.script({ status: 200, body: { errcode: 45009, errmsg: 'api freq out of limit' } });
    expect(await failureOf(sendWecomRobot(`${receiver.url}/x`, message, context))).toMatchObject({
      transient: true,
    });
    // A 200 that is not JSON is never "sent".
    receiver.script({ status: 200, body: '<html>proxy login</html>' });
    expect(await failureOf(sendWecomRobot(`${receiver.url}/x`, message, context))).toMatchObject({
      transient: false,
    });
  });

  it('Feishu: timestamp and sign in the body (HMAC keyed by timestamp+secret over nothing), a post message; code ≠ 0 is a failure', async () => {
    await sendFeishuRobot(`${receiver.url}/open-apis/bot/v2/hook/abc`, 'feishu-secret', message, context);
    const [request] = await receiver.waitForRequests(1);
    const body = JSON.parse(request!.body.toString('utf8'));
    const seconds = NOW / 1000;
    expect(body.timestamp).toBe(String(seconds));
    expect(body.sign).toBe(createHmac('sha256', `${seconds}\nfeishu-secret`).update('').digest('base64'));
    expect(body.msg_type).toBe('post');
    expect(body.content.post.zh_cn).toEqual({
      title: message.title,
      content: [
        [{ tag: 'text', text: message.content }],
        [{ tag: 'a', text: message.linkUrl, href: message.linkUrl }],
      ],
    });
    receiver.script({ status: 200, body: { code: 19021, msg: 'sign match fail' } });
    expect(await failureOf(sendFeishuRobot(`${receiver.url}/h`, 's', message, context))).toMatchObject({
      transient: false,
      params: { code: 19021 },
    });
    receiver.script({ status: 200, body: { code: 11232, msg: 'frequency limited' } });
    expect(await failureOf(sendFeishuRobot(`${receiver.url}/h`, 's', message, context))).toMatchObject({
      transient: true,
    });
  });
});
