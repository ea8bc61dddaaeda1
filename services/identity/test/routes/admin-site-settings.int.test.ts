// GET and PUT /admin/site-settings (gateway routes/identity-settings-routes.ts): reading, updating,
// bad input and security. Too many for one file, the webhook secrets and the origin allowlists are
// in admin-site-settings-secrets and -allowlists; the store and its cache: ../settings-store.
import { Topics } from '@platform/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSiteSettings } from '../../src/domain/settings/update-site-settings.js';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { identityClientsAs } from '../support/internal-clients.js';
import { OFFICIAL_MODEL_ORIGINS as OFFICIAL_ORIGINS } from '../../src/domain/settings/model-endpoint-allowlist.js';
import {
  captureEvents,
  useIdentityHarness,
  waitUntil as waitFor,
  type EventCapture,
} from '../support/suite.js';
import { describeRouteSecurity } from '../support/route-security.js';

const harness = useIdentityHarness();
let admin: TestUser;
let plain: TestUser;
let events: EventCapture;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'setadmin' });
  plain = await createTestUser(harness, { name: 'setuser' });
  events = await captureEvents(harness, 'settings-events', [Topics.DOMAIN_EVENTS]);
}, 60_000);
afterAll(async () => {
  await events?.stop();
});

describe('GET /admin/site-settings', () => {
  it('returns every setting by spec name with secrets masked as null plus <name>_set', async () => {
    const res = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const data = res.body.data;
    expect(data).toMatchObject({
      session_timeout_days: 30,
      single_session: false,
      max_login_attempts: 5,
      smtp_port: 587,
      smtp_encryption: 'tls',
      model_endpoint_allowlist: OFFICIAL_ORIGINS,
      webhook_headers: null,
      webhook_headers_set: false,
      smtp_password: null,
      smtp_password_set: false,
      slack_webhook_url: null,
      slack_webhook_url_set: false,
    });
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['dingtalk_app_secret_set', 'webhook_method']));
  });

  it('answers 401/2000 without a token and 403/3000 without admin:settings:read', async () => {
    const anonymous = await harness.request('GET', '/admin/site-settings');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
    const denied = await harness.request('GET', '/admin/site-settings', { token: plain.token });
    expect([denied.status, denied.body.code]).toEqual([403, 3000]);
  });
});

// `PUT /admin/site-settings` with keys a client controls (issue 20): a huge list of unknown names
// and the names that mean something to a JavaScript object (`__proto__`, `constructor`,
// `prototype`) are refused with 1001 naming the field, fast, and never answer 500 or slip through.
// They run before the updates below: "nothing written" compares with the defaults.
/** A JSON body as a client writes it: `__proto__` stays an ordinary key in the text. */
const put = (body: string) =>
  harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    raw: { body, contentType: 'application/json' },
  });

async function readSettings(): Promise<Record<string, unknown>> {
  const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
  return read.body.data;
}

describe('PUT /admin/site-settings with hostile keys', () => {
  it('10,000 unknown names plus __proto__ and constructor: 422 / 1001 at once, nothing written', async () => {
    const unknown = Array.from({ length: 10_000 }, (_, i) => `"unknown_${i}":${i}`).join(',');
    const body = `{${unknown},"__proto__":{"max_login_attempts":1},"constructor":{"prototype":1}}`;
    const started = Date.now();
    const res = await put(body);
    expect([res.status, res.body.code]).toEqual([422, 1001]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(Object.keys(res.body.data.errors)).toContain('_');
    expect((await readSettings()).max_login_attempts).toBe(5);
  });

  it('__proto__, constructor and prototype are refused by name, alone or beside a real setting', async () => {
    const bodies = [
      ['{"__proto__":{"max_login_attempts":1}}', '__proto__'],
      ['{"__proto__":1}', '__proto__'],
      ['{"constructor":{"prototype":1}}', 'constructor'],
      ['{"constructor":1}', 'constructor'],
      ['{"prototype":{"x":"y"}}', 'prototype'],
      ['{"single_session":true,"__proto__":{"single_session":false}}', '__proto__'],
    ] as const;
    const results = await Promise.all(bodies.map(([body]) => put(body)));
    results.forEach((res, i) => {
      const [body, field] = bodies[i]!;
      expect([res.status, res.body.code], body).toEqual([422, 1001]);
      expect(Object.keys(res.body.data.errors), body).toContain(field);
    });
    expect((await readSettings()).single_session).toBe(false);
  });

  it('the service itself refuses reserved, unknown and too many names before any per-key work', async () => {
    const deps = harness.identity.dependencies;
    const update = (changes: Record<string, unknown>) =>
      updateSiteSettings(deps, { changes, actorUserId: admin.id, ip: '', userAgent: '', requestId: '' }).then(
        () => undefined,
        (err: { code?: number; data?: { errors?: Record<string, string[]> } }) => err,
      );
    const withOwnProto = JSON.parse('{"__proto__":{"single_session":true},"constructor":1}') as Record<
      string,
      unknown
    >;
    const reserved = await update(withOwnProto);
    expect(reserved?.code).toBe(1001);
    expect(Object.keys(reserved?.data?.errors ?? {}).sort()).toEqual(['__proto__', 'constructor']);

    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`unknown_${i}`, i]));
    const tooMany = await update(many);
    expect(tooMany?.code).toBe(1001);
    expect(Object.keys(tooMany?.data?.errors ?? {})).toEqual(['_']);
    expect((await readSettings()).single_session).toBe(false);
  });
});

describe('PUT /admin/site-settings', () => {
  it('updates by name, masks secrets, audits names only and publishes settings.changed', async () => {
    events.clear();
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { smtp_host: 'mail.example.test', smtp_password: 's3cret-value', max_login_attempts: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      smtp_host: 'mail.example.test',
      smtp_password: null,
      smtp_password_set: true,
      max_login_attempts: 7,
    });
    const { rows } = await harness.identity.dependencies.pool.query(
      `SELECT actor_user_id, details FROM audit_log WHERE action = 'settings.update' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0].actor_user_id).toBe(admin.id);
    expect(rows[0].details.keys.sort()).toEqual(['max_login_attempts', 'smtp_host', 'smtp_password']);
    expect(JSON.stringify(rows[0].details)).not.toContain('s3cret-value');
    const stored = await harness.identity.dependencies.pool.query(
      `SELECT value FROM site_settings WHERE key = 'smtp_password'`,
    );
    expect(JSON.stringify(stored.rows[0].value)).not.toContain('s3cret-value');

    const event = await waitFor(() => events.messages.find((e) => e.eventType === 'settings.changed'));
    expect(event.value).toMatchObject({
      type: 'settings.changed',
      source_service: 'identity',
      data: { keys: expect.arrayContaining(['smtp_host', 'smtp_password', 'max_login_attempts']) },
    });
  });

  it('accepts the read view back: `_set` echoes are ignored and a null secret is kept', async () => {
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { ...read.body.data, single_session: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ single_session: true, smtp_password_set: true });
    const notifications = identityClientsAs(harness.grpcAddress, { service: 'notifications' });
    const effective = await notifications.settings.call('getEffectiveSettings', {
      keys: ['smtp_password'],
    });
    notifications.close();
    expect(effective.settings).toEqual({ smtp_password: 's3cret-value' });
    await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { single_session: false },
    });
  });

  it('clears a secret with an empty string', async () => {
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { webhook_secret: 'abc' },
    });
    expect(res.body.data.webhook_secret_set).toBe(true);
    const cleared = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { webhook_secret: '' },
    });
    expect(cleared.body.data).toMatchObject({ webhook_secret: null, webhook_secret_set: false });
  });

  it('rejects unknown names and bad values with 1001 per field and writes nothing', async () => {
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: {
        not_a_setting: 1,
        max_login_attempts: 0,
        smtp_encryption: 'starttls',
        single_session: 'yes',
        allow_registration: false,
      },
    });
    expect(res.body.code).toBe(1001);
    expect(Object.keys(res.body.data.errors).sort()).toEqual([
      'max_login_attempts',
      'not_a_setting',
      'single_session',
      'smtp_encryption',
    ]);
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(read.body.data.allow_registration).toBe(true);
  });

  it('answers 403/3000 without admin:settings:update', async () => {
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: plain.token,
      json: { single_session: true },
    });
    expect([res.status, res.body.code]).toEqual([403, 3000]);
  });

  it('rejects malformed bodies at the edge', async () => {
    const asArray = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: [1, 2],
    });
    expect([asArray.status, asArray.body.code]).toEqual([422, 1001]);
    const tooMany = Object.fromEntries(Array.from({ length: 151 }, (_, i) => [`k${i}`, i]));
    const big = await harness.request('PUT', '/admin/site-settings', { token: admin.token, json: tooMany });
    expect([big.status, big.body.code]).toEqual([422, 1001]);
    const longKey = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { ['x'.repeat(101)]: 1 },
    });
    expect([longKey.status, longKey.body.code]).toEqual([422, 1001]);
    const broken = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBeLessThan(500);
    const notJson = await fetch(`${harness.baseUrl}/api/v1/admin/site-settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{"single_session": tru',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { code: number }).code).toBe(1002);
  });
});

describeRouteSecurity(() => harness, /^\/admin\/site-settings$/);
