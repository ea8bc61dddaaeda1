import { createHmac } from 'node:crypto';
import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { createProducer } from '@platform/kafka';
import { createOutgoingTrust, startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { serviceTrust } from '@platform/runtime';
import { createSettingsClient, type SettingsClient } from '@platform/settings-client';
import {
  listen,
  requester,
  stackEnv,
  startHttpReceiver,
  startIdentityProcess,
  startSmtpSink,
  type HttpReceiver,
  type IdentityProcess,
  type IdentityUser,
  type Requester,
  type RunningHttp,
  type SmtpSink,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityDirectory } from '../src/adapters/identity-directory.js';
import { createDelivery } from '../src/delivery/index.js';
import { channelTestsGrpc } from '../src/grpc/channel-tests-grpc.js';
import { logger, startDeliveryHarness, type DeliveryHarness } from './support/delivery-harness.js';

/**
 * `POST /admin/site-settings/test-*` through the real gateway: identity (its build output) holds
 * the settings, notifications answers the test, local servers receive what is sent.
 */
let identity: IdentityProcess;
let h: DeliveryHarness;
let settings: SettingsClient;
let grpc: RunningGrpcServer;
let gateway: Gateway;
let http: RunningHttp;
let request: Requester;
let receiver: HttpReceiver;
let sink: SmtpSink;
let admin: IdentityUser;
let plain: IdentityUser;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: { errcode: 0, errmsg: 'ok', code: 0 } });
  sink = await startSmtpSink();
  identity = await startIdentityProcess();
  h = await startDeliveryHarness();
  const trust = createOutgoingTrust({
    service: 'notifications',
    serviceSigningKey: h.config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  settings = createSettingsClient({ address: identity.address, trust, logger, ttlMs: 0 });
  const delivery = createDelivery({
    connection: h.connection,
    redis: h.redis,
    kafka: h.kafka,
    producer: createProducer(h.kafka),
    logger,
    config: h.config,
    settings,
    directory: identityDirectory(identity.address, trust.to('identity')),
  });
  grpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [channelTestsGrpc(delivery)],
    trust: serviceTrust('notifications', h.config),
  });
  gateway = buildGateway(
    loadGatewayConfig({
      ...process.env,
      TASK_SEAL_KEY: stackEnv.taskSealKey,
      ...stackEnv.serviceTrustEnv('gateway'),
      REDIS_URL: stackEnv.redisUrl,
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:1',
      NOTIFICATIONS_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
      MODELS_GRPC_ADDR: '127.0.0.1:1',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:1',
    }),
    logger,
    'test',
  );
  http = await listen(gateway.app);
  request = requester(http.baseUrl);
  admin = await identity.createUser({ superuser: true, name: 'channel-admin' });
  plain = await identity.createUser({ name: 'channel-user' });
});

afterAll(async () => {
  await http?.close();
  await gateway?.close();
  await grpc?.shutdown(1_000);
  await settings?.stop();
  await h?.stop();
  await identity?.stop();
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
