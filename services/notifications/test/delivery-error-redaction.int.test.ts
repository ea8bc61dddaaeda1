import { freePort, waitUntil, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';

/**
 * Robot webhook URLs carry their credentials in the path or the query; delivery error messages
 * (readable by team admins in the admin list) and channel-test answers show the origin only.
 */
let h: NotificationsHarness;
let superuser: IdentityUser;
let closedPort: number;

beforeAll(async () => {
  h = await startNotificationsHarness({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' });
  superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  closedPort = await freePort();
});

afterAll(async () => {
  await h?.stop();
});

const SECRETS = [
  'WECOM-SECRET-KEY',
  'DING-SECRET-TOKEN',
  'FEISHU-SECRET-HOOK',
  'SLACK-SECRET-PATH',
  'user:pw',
];

describe('delivery error messages', () => {
  it('carry no path or query of a chat webhook URL (nothing reachable: connection refused)', async () => {
    const base = `http://127.0.0.1:${closedPort}`;
    const saved = await h.request('PUT', '/admin/site-settings', {
      token: superuser.token,
      json: {
        wechat_enabled: true,
        wechat_webhook_url: `${base}/cgi-bin/webhook/send?key=WECOM-SECRET-KEY`,
        dingtalk_enabled: true,
        dingtalk_webhook_url: `http://user:pw@127.0.0.1:${closedPort}/robot/send?access_token=DING-SECRET-TOKEN`,
        feishu_enabled: true,
        feishu_webhook_url: `${base}/open-apis/bot/v2/hook/FEISHU-SECRET-HOOK`,
        slack_enabled: true,
        slack_webhook_url: `${base}/services/T0/B0/SLACK-SECRET-PATH`,
      },
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const created = await h.request('POST', '/admin/notifications', {
      token: superuser.token,
      json: {
        scope: 'global',
        type: 'test.redaction',
        title: 'redaction',
        content: 'c',
        notify_channels: ['wechat', 'dingtalk', 'feishu', 'slack'],
      },
    });
    expect(created.body.code).toBe(0);
    const deliveries = await waitUntil(
      async () => {
        const listed = await h.request('GET', '/admin/notifications?type=test.redaction', {
          token: superuser.token,
        });
        const found: { channel: string; error_message: string | null }[] =
          listed.body.data.items[0].deliveries;
        return found.length === 4 && found.every((d) => d.error_message) ? found : undefined;
      },
      20_000,
      'no failed attempt recorded',
    );
    for (const delivery of deliveries) {
      expect(delivery.error_message, delivery.channel).toContain(`127.0.0.1:${closedPort}`);
      for (const secret of [...SECRETS, '/cgi-bin', '/services/', '/robot', '/open-apis']) {
        expect(delivery.error_message, delivery.channel).not.toContain(secret);
      }
    }
  });

  it('a channel test answer shows the origin only', async () => {
    const answer = await h.request('POST', '/admin/site-settings/test-wechat', {
      token: superuser.token,
      json: {
        wechat_webhook_url: `http://127.0.0.1:${closedPort}/cgi-bin/webhook/send?key=WECOM-SECRET-KEY`,
      },
    });
    expect(answer.body.data.success).toBe(false);
    expect(answer.body.data.message).toContain(`127.0.0.1:${closedPort}`);
    expect(answer.body.data.message).not.toContain('WECOM-SECRET-KEY');
    expect(answer.body.data.message).not.toContain('/cgi-bin');
  });
});
