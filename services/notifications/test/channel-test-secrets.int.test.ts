import {
  startHttpReceiver,
  startSmtpSink,
  type HttpReceiver,
  type IdentityUser,
  type Requester,
  type SmtpSink,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelTestAuditModel } from '../src/data/models.js';
import { startChannelTestStack, type ChannelTestStack } from './support/channel-test-stack.js';

/**
 * Channel tests must not carry the saved secrets to a destination the request chose (issue 20):
 * through the real gateway, with the saved settings in identity and local servers that record the
 * credentials and headers they receive. SMTP hosts pass the outbound address rule; every test is
 * audited.
 */
let stack: ChannelTestStack;
let request: Requester;
let receiver: HttpReceiver;
let sink: SmtpSink;
let admin: IdentityUser;

beforeAll(async () => {
  receiver = await startHttpReceiver({ status: 200, body: 'ok' });
  sink = await startSmtpSink();
  stack = await startChannelTestStack();
  request = stack.request;
  admin = await stack.identity.createUser({ superuser: true, name: 'secrets-admin' });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await sink?.close();
});

const save = async (settings: Record<string, unknown>) => {
  const saved = await request('PUT', '/admin/site-settings', { token: admin.token, json: settings });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
};

const test = (channel: string, json: Record<string, unknown>) =>
  request('POST', `/admin/site-settings/test-${channel}`, { token: admin.token, json });

describe('channel tests with an overridden destination', () => {
  it('test-email to another SMTP host goes without the saved username and password', async () => {
    // The saved relay is this same sink: the saved credentials still reach it...
    await save({
      smtp_host: '127.0.0.1',
      smtp_port: sink.port,
      smtp_encryption: 'none',
      smtp_username: 'stored-user',
      smtp_password: 'stored-password',
      email_from_address: 'noreply@example.com',
    });
    const kept = await test('email', { to: 'kept@example.com' });
    expect(kept.body.data).toMatchObject({ success: true });
    expect((await sink.waitForMail('kept@example.com')).authUser).toBe('stored-user');
    // ...but not a host the request names (the same server under another name stands for it).
    const moved = await test('email', {
      to: 'moved@example.com',
      smtp_host: 'localhost',
      smtp_port: sink.port,
      smtp_encryption: 'none',
    });
    expect(moved.body.data).toMatchObject({ success: true });
    expect((await sink.waitForMail('moved@example.com')).authUser).toBeUndefined();
    // Credentials given in the same request are used.
    const own = await test('email', {
      to: 'own@example.com',
      smtp_host: 'localhost',
      smtp_username: 'request-user',
      smtp_password: 'request-password',
    });
    expect(own.body.data).toMatchObject({ success: true });
    expect((await sink.waitForMail('own@example.com')).authUser).toBe('request-user');
  });

  it('test-webhook to another URL goes without the saved headers and signing secret', async () => {
    await save({
      webhook_url: `${receiver.url}/saved-hook`,
      webhook_headers: { 'X-Api-Key': 'stored-header-secret' },
      webhook_secret: 'stored-signing-secret',
    });
    const kept = await test('webhook', {});
    expect(kept.body.data).toMatchObject({ success: true });
    const savedHit = receiver.requests.find((r) => r.path === '/saved-hook')!;
    expect(savedHit.headers['x-api-key']).toBe('stored-header-secret');
    expect(savedHit.headers['webhook-signature']).toBeDefined();

    const moved = await test('webhook', { webhook_url: `${receiver.url}/collector` });
    expect(moved.body.data).toMatchObject({ success: true });
    const hit = receiver.requests.find((r) => r.path === '/collector')!;
    expect(hit.headers['x-api-key']).toBeUndefined();
    expect(hit.headers['webhook-signature']).toBeUndefined();
    expect(hit.headers['x-webhook-signature']).toBeUndefined();
  });

  it('an SMTP host on a metadata or link-local address is refused before connecting', async () => {
    await save({ smtp_username: 'stored-user', smtp_password: 'stored-password' });
    const started = Date.now();
    const answers = await Promise.all(
      ['169.254.169.254', 'metadata.google.internal', '169.254.10.1', '[::ffff:169.254.169.254]'].map(
        (host) => test('email', { to: 'x@example.com', smtp_host: host, smtp_port: 25 }),
      ),
    );
    for (const answer of answers) {
      expect(answer.body.data.success).toBe(false);
      expect(answer.body.data.message).toContain('The destination address is not allowed');
    }
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('every channel test is audited: who, channel, destination host (no path or query), outcome', async () => {
    await test('slack', { slack_webhook_url: `${receiver.url}/services/T000/B000/robot-token?x=secret` });
    await test('email', { to: 'x@example.com', smtp_host: '169.254.169.254', smtp_port: 25 });
    // read where admins read it: GET /admin/site-settings/channel-test-audit (newest first)
    const listed = await request('GET', '/admin/site-settings/channel-test-audit?page_size=100', {
      token: admin.token,
    });
    expect(listed.body.code).toBe(0);
    type Entry = Record<string, unknown> & { channel: string; destination: string };
    const entries: Entry[] = listed.body.data.items;
    const slack = entries.find((entry) => entry.channel === 'slack');
    expect(slack).toMatchObject({
      actor_user_id: admin.id,
      actor_username: admin.username,
      destination: new URL(receiver.url).origin,
      overridden: ['slack_webhook_url'],
      dropped_secrets: [],
      outcome: 'succeeded',
      error_key: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain('robot-token');
    expect(slack!.request_id).toEqual(expect.any(String));
    const refused = entries.find((entry) => entry.destination === '169.254.169.254:25');
    expect(refused).toMatchObject({
      channel: 'email',
      outcome: 'failed',
      error_key: 'delivery_url_refused',
      dropped_secrets: ['smtp_username', 'smtp_password'],
    });
    // the stored record holds no more than the route shows
    const stored = await channelTestAuditModel(stack.h.connection).findById(slack!.id).lean();
    expect(stored).toMatchObject({ action: 'channel.test', destination: slack!.destination });
    // global admins only
    const plain = await stack.identity.createUser({ name: 'audit-reader' });
    const denied = await request('GET', '/admin/site-settings/channel-test-audit', { token: plain.token });
    expect(denied.status).toBe(403);
  });
});
