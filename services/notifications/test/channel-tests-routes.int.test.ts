import { createHmac } from 'node:crypto';
import {
  startHttpReceiver,
  startSmtpSink,
  type HttpReceiver,
  type IdentityUser,
  type Requester,
  type SmtpSink,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChannelTestStack, type ChannelTestStack } from './support/channel-test-stack.js';

/**
 * `POST /admin/site-settings/test-*` through the real gateway: identity (its build output) holds
 * the settings, notifications answers the test, local servers receive what is sent.
 */
let stack: ChannelTestStack;
let request: Requester;
let receiver: HttpReceiver;
let sink: SmtpSink;
let admin: IdentityUser;
let plain: IdentityUser;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: { errcode: 0, errmsg: 'ok', code: 0 } });
  sink = await startSmtpSink();
  stack = await startChannelTestStack();
  request = stack.request;
  admin = await stack.identity.createUser({ superuser: true, name: 'channel-admin' });
  plain = await stack.identity.createUser({ name: 'channel-user' });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await sink?.close();
});

const saved = async () => (await request('GET', '/admin/site-settings', { token: admin.token })).body.data;

describe('channel tests', () => {
  it('test-webhook sends with the overrides (signed), answers {success, message} and saves nothing', async () => {
    const before = await saved();
    const sent = await request('POST', '/admin/site-settings/test-webhook', {
      token: admin.token,
      json: {
        webhook_url: `${receiver.url}/test-hook`,
        webhook_secret: 'override-secret',
        webhook_headers: { 'X-Token': 'abc' },
        webhook_body_template: '{"t": "{{title}}"}',
      },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ code: 0, data: { success: true, message: expect.any(String) } });
    const hit = receiver.requests.find((r) => r.path === '/test-hook')!;
    expect(JSON.parse(hit.body.toString('utf8'))).toEqual({ t: 'Test notification from Agent Platform' });
    expect(hit.headers['x-token']).toBe('abc');
    expect(hit.headers['x-webhook-signature-256']).toBe(
      createHmac('sha256', 'override-secret').update(hit.body).digest('hex'),
    );
    const after = await saved();
    expect(after).toEqual(before);
    expect(after.webhook_url).toBe('');
  });

  it('a failing receiver answers success false with the localized reason', async () => {
    receiver.script({ status: 500, body: 'down' });
    const failed = await request('POST', '/admin/site-settings/test-slack', {
      token: admin.token,
      headers: { 'Accept-Language': 'zh' },
      json: { slack_webhook_url: `${receiver.url}/slack-test` },
    });
    expect(failed.body).toMatchObject({ code: 0, data: { success: false } });
    expect(failed.body.data.message).toContain('HTTP 500');
    expect(failed.body.data.message).toContain('测试消息发送失败');
    const incomplete = await request('POST', '/admin/site-settings/test-dingtalk', {
      token: admin.token,
      json: {},
    });
    expect(incomplete.body.data).toMatchObject({ success: false });
    expect(incomplete.body.data.message).toContain('DingTalk is not fully configured');
  });

  it('test-email sends to `to` through the overridden SMTP server', async () => {
    const sent = await request('POST', '/admin/site-settings/test-email', {
      token: admin.token,
      json: {
        to: 'ops@example.com',
        smtp_host: '127.0.0.1',
        smtp_port: sink.port,
        smtp_encryption: 'none',
        email_from_address: 'noreply@example.com',
      },
    });
    expect(sent.body).toMatchObject({ code: 0, data: { success: true } });
    const mail = await sink.waitForMail('ops@example.com');
    expect(mail.subject).toBe('Test notification from Agent Platform');
    expect((await saved()).smtp_host).toBe('');
  });

  it('needs admin:settings:update; unknown fields and bad values are 422 / 1001, never a 5xx', async () => {
    const denied = await request('POST', '/admin/site-settings/test-webhook', {
      token: plain.token,
      json: {},
    });
    expect(denied.status).toBe(403);
    const anonymous = await request('POST', '/admin/site-settings/test-webhook', { json: {} });
    expect(anonymous.status).toBe(401);
    for (const [path, json] of [
      ['/admin/site-settings/test-webhook', { smtp_host: 'x' }],
      ['/admin/site-settings/test-webhook', { webhook_url: 'not a url' }],
      ['/admin/site-settings/test-webhook', { webhook_method: 'PUT' }],
      ['/admin/site-settings/test-email', { to: 'nope' }],
      ['/admin/site-settings/test-email', { smtp_port: 70_000 }],
      ['/admin/site-settings/test-feishu', { feishu_notification_type: 'bot' }],
      ['/admin/site-settings/test-wechat', [1, 2]],
    ] as const) {
      const bad = await request('POST', path, { token: admin.token, json });
      expect(bad.status, `${path} ${JSON.stringify(json)}`).toBe(422);
      expect(bad.body.code).toBe(1001);
    }
  });
});
