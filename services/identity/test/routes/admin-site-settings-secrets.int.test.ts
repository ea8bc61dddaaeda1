// GET and PUT /admin/site-settings (gateway routes/identity-settings-routes.ts): the webhook secrets
// (masked, hinted, encrypted at rest). The route's other tests and its security:
// admin-site-settings.int.test.ts; the allowlists: admin-site-settings-allowlists.int.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { identityClientsAs } from '../support/internal-clients.js';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { useIdentityHarness } from '../support/suite.js';

// The robot webhook URLs embed their access token and webhook_headers usually carry credentials:
// like the Slack URL they are secrets — masked in the admin view, encrypted at rest.
const harness = useIdentityHarness();
let admin: TestUser;

/** GetEffectiveSettings is internal-only: read it as notifications does (docs/security.md). */
async function effectiveSettings(keys: string[]) {
  const notifications = identityClientsAs(harness.grpcAddress, { service: 'notifications' });
  try {
    return await notifications.settings.call('getEffectiveSettings', { keys });
  } finally {
    notifications.close();
  }
}

const secrets = {
  dingtalk_webhook_url: 'https://oapi.dingtalk.com/robot/send?access_token=dt-token-0123456789',
  wechat_webhook_url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=wc-token-0123456789',
  feishu_webhook_url: 'https://open.feishu.cn/open-apis/bot/v2/hook/fs-token-0123456789',
  slack_webhook_url: 'https://hooks.slack.com/services/T000/B000/sl-token-0123456789',
  webhook_headers: { Authorization: 'Bearer hdr-token-0123456789', 'X-Tenant': 'acme' },
};
const TOKENS = ['dt-token', 'wc-token', 'fs-token', 'sl-token', 'hdr-token'];

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'secadmin' });
});

describe('webhook secrets in site settings', () => {
  it('start unset: null, `_set` false and no hint', async () => {
    const res = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    for (const key of Object.keys(secrets)) {
      expect(res.body.data, key).toMatchObject({ [key]: null, [`${key}_set`]: false, [`${key}_hint`]: null });
    }
  });

  it('are shown only as `_set` plus a masked hint, stored encrypted, and served decrypted', async () => {
    const put = await harness.request('PUT', '/admin/site-settings', { token: admin.token, json: secrets });
    expect(put.status).toBe(200);
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    for (const view of [put.body.data, read.body.data]) {
      expect(view).toMatchObject({
        dingtalk_webhook_url: null,
        dingtalk_webhook_url_set: true,
        dingtalk_webhook_url_hint: 'https://oapi.dingtalk.com/****',
        wechat_webhook_url: null,
        wechat_webhook_url_set: true,
        wechat_webhook_url_hint: 'https://qyapi.weixin.qq.com/****',
        feishu_webhook_url: null,
        feishu_webhook_url_set: true,
        feishu_webhook_url_hint: 'https://open.feishu.cn/****',
        slack_webhook_url: null,
        slack_webhook_url_set: true,
        slack_webhook_url_hint: 'https://hooks.slack.com/****',
        webhook_headers: null,
        webhook_headers_set: true,
        webhook_headers_hint: { Authorization: '****', 'X-Tenant': '****' },
      });
      const text = JSON.stringify(view);
      for (const token of TOKENS) expect(text).not.toContain(token);
    }

    const { rows } = await harness.identity.dependencies.pool.query<{ key: string; value: unknown }>(
      'SELECT key, value FROM site_settings WHERE key = ANY($1::text[])',
      [Object.keys(secrets)],
    );
    expect(rows).toHaveLength(Object.keys(secrets).length);
    for (const row of rows) {
      expect(row.value, row.key).toMatch(/^v1:/);
      for (const token of TOKENS) expect(JSON.stringify(row.value)).not.toContain(token);
    }

    const effective = await effectiveSettings(Object.keys(secrets));
    expect(effective.settings).toEqual(secrets);
  });

  it('accept the read view back unchanged (hints and `_set` ignored, null keeps the value)', async () => {
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    const put = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: read.body.data,
    });
    expect([put.status, put.body.code]).toEqual([200, 0]);
    const effective = await effectiveSettings(['dingtalk_webhook_url', 'webhook_headers']);
    expect(effective.settings).toEqual({
      dingtalk_webhook_url: secrets.dingtalk_webhook_url,
      webhook_headers: secrets.webhook_headers,
    });
  });

  it('read a value saved in clear before it became a secret, and encrypt it on its next save', async () => {
    const { pool } = harness.identity.dependencies;
    await pool.query(`UPDATE site_settings SET value = $1::jsonb WHERE key = 'feishu_webhook_url'`, [
      JSON.stringify('https://open.feishu.cn/open-apis/bot/v2/hook/legacy-plain'),
    ]);
    harness.identity.dependencies.settings.invalidate();
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(read.body.data).toMatchObject({ feishu_webhook_url: null, feishu_webhook_url_set: true });
    await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { feishu_webhook_url: 'https://open.feishu.cn/open-apis/bot/v2/hook/legacy-plain' },
    });
    const { rows } = await pool.query(`SELECT value FROM site_settings WHERE key = 'feishu_webhook_url'`);
    expect(rows[0].value).toMatch(/^v1:/);
  });

  it('clear with "" (URLs) and {} (headers)', async () => {
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { dingtalk_webhook_url: '', webhook_headers: {} },
    });
    expect(res.body.data).toMatchObject({
      dingtalk_webhook_url_set: false,
      dingtalk_webhook_url_hint: null,
      webhook_headers_set: false,
      webhook_headers_hint: null,
    });
  });
});
