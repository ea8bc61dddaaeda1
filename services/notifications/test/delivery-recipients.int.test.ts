import {
  startHttpReceiver,
  startSmtpSink,
  waitUntil,
  type HttpReceiver,
  type SmtpSink,
} from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelName, DeliveryView } from '../src/domain/delivery-port.js';
import { notification, startDeliveryHarness, type DeliveryHarness } from './support/delivery-harness.js';

/**
 * Who a delivery reaches: e-mail to each recipient in batches through the queue, and the app modes
 * of DingTalk, WeCom and Feishu against local fakes of the vendors' APIs (token fetched once and
 * cached in Redis, recipients addressed as docs/notifications-delivery.md says).
 */
let h: DeliveryHarness;
let vendor: HttpReceiver;
let sink: SmtpSink;

beforeAll(async () => {
  vendor = await startHttpReceiver({
    status: 200,
    body: { errcode: 0, errmsg: 'ok', code: 0, msg: 'success' },
  });
  sink = await startSmtpSink();
  h = await startDeliveryHarness({
    DELIVERY_EMAIL_BATCH_SIZE: '2',
    DINGTALK_API_BASE: `${vendor.url}/dingtalk`,
    WECOM_API_BASE: `${vendor.url}/wecom`,
    FEISHU_API_BASE: `${vendor.url}/feishu`,
  });
  await h.startWorkers();
  const people = [
    ['u1', 'alice', 'alice@example.com', true],
    ['u2', 'bob', 'bob@example.com', true],
    ['u3', 'carol', '', true], // no address
    ['u4', 'dave', 'dave@example.com', false], // deactivated
    ['u5', 'erin', 'erin@example.com', true],
    ['u6', 'frank', 'frank@example.com', true], // not in the team
  ] as const;
  for (const [id, username, email, active] of people) {
    h.directory.users.set(id, { id, username, email, locale: 'en', is_active: active });
  }
  h.directory.teams.set('team-1', ['u1', 'u2', 'u3', 'u4', 'u5']);
});
afterAll(async () => {
  await h?.stop();
  await vendor?.close();
  await sink?.close();
});

async function deliver(channel: ChannelName, scope: 'user' | 'team' | 'global', target: string | null) {
  const n = notification({
    scope,
    user_id: scope === 'user' ? target : null,
    team_id: scope === 'team' ? target : null,
    title: `${channel} ${scope} ${crypto.randomUUID()}`,
  });
  await h.delivery.port.scheduleDeliveries(n, [channel]);
  return waitUntil(
    async () => {
      const [view] = (await h.delivery.port.deliveriesFor([n.id], 'en')).get(n.id)!;
      return view && (view.status === 'success' || view.status === 'failed') ? { view, n } : undefined;
    },
    30_000,
    `${channel} ${scope} delivery did not settle`,
  );
}

const bodyOf = (path: string) =>
  vendor.requests
    .filter((r) => r.path.startsWith(path))
    .map((r) => JSON.parse(r.body.toString('utf8') || '{}'));

describe('e-mail recipients', () => {
  it('team: each active member with an address, in batches of two through the queue', async () => {
    h.settings.values = {
      smtp_enabled: true,
      smtp_host: '127.0.0.1',
      smtp_port: sink.port,
      smtp_encryption: 'none',
      email_from_address: 'noreply@example.com',
    };
    const { view, n } = await deliver('email', 'team', 'team-1');
    expect(view).toMatchObject({ status: 'success', retry_count: 0, error_message: null });
    const got = sink.mails.filter((m) => m.subject === n.title).flatMap((m) => m.to);
    expect(got.sort()).toEqual(['alice@example.com', 'bob@example.com', 'erin@example.com']);
    // Three pages of two ids (u1 u2 | u3 u4 | u5): three claims of the one delivery.
    expect((await h.delivery.repo.get(view.id))!).toMatchObject({ attempts: 3, email_sent: 3 });
  });

  it('user: that user only; global: every active user; nobody reachable fails with the reason', async () => {
    const single = await deliver('email', 'user', 'u2');
    expect(sink.mails.filter((m) => m.subject === single.n.title).flatMap((m) => m.to)).toEqual([
      'bob@example.com',
    ]);
    const everyone = await deliver('email', 'global', null);
    expect(
      sink.mails
        .filter((m) => m.subject === everyone.n.title)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(['alice@example.com', 'bob@example.com', 'erin@example.com', 'frank@example.com']);
    const nobody = await deliver('email', 'user', 'u3');
    expect(nobody.view).toMatchObject({ status: 'failed' } satisfies Partial<DeliveryView>);
    expect(nobody.view.error_message).toBe('No recipient with an active account and an e-mail address');
  });
});

describe('app modes against local fakes', () => {
  it('DingTalk app: one token for many sends, a work notice to usernames, or to everyone for global', async () => {
    vendor.requests.splice(0);
    vendor.script({ body: { errcode: 0, access_token: 'dt-token', expires_in: 7200 } });
    h.settings.values = {
      dingtalk_enabled: true,
      dingtalk_notification_type: 'app',
      dingtalk_app_key: `key-${crypto.randomUUID()}`,
      dingtalk_app_secret: 'dt-secret',
      dingtalk_agent_id: '9001',
    };
    await deliver('dingtalk', 'team', 'team-1');
    await deliver('dingtalk', 'global', null);
    const tokenCalls = vendor.requests.filter((r) => r.path.startsWith('/dingtalk/gettoken'));
    expect(tokenCalls).toHaveLength(1);
    const tokenUrl = new URL(tokenCalls[0]!.path, vendor.url);
    expect(tokenUrl.searchParams.get('appsecret')).toBe('dt-secret');
    const sends = vendor.requests.filter((r) =>
      r.path.startsWith('/dingtalk/topapi/message/corpconversation/asyncsend_v2'),
    );
    expect(sends.map((r) => new URL(r.path, vendor.url).searchParams.get('access_token'))).toEqual([
      'dt-token',
      'dt-token',
    ]);
    const [team, global] = bodyOf('/dingtalk/topapi');
    expect(team).toMatchObject({
      agent_id: '9001',
      userid_list: 'alice,bob,carol,erin',
      msg: { msgtype: 'markdown' },
    });
    expect(global).toMatchObject({ agent_id: '9001', to_all_user: true });
  });

  it('WeCom app: touser joined by |, @all for global; an expired token is dropped and fetched again', async () => {
    vendor.requests.splice(0);
    h.settings.values = {
      wechat_enabled: true,
      wechat_notification_type: 'app',
      wechat_corp_id: `corp-${crypto.randomUUID()}`,
      wechat_agent_id: '1000002',
      wechat_secret: 'wc-secret',
    };
    vendor.script(
      { body: { errcode: 0, access_token: 'wc-old', expires_in: 7200 } },
      { body: { errcode: 42001, errmsg: 'access_token expired' } },
      { body: { errcode: 0, access_token: 'wc-new', expires_in: 7200 } },
    );
    const team = await deliver('wechat', 'team', 'team-1');
    expect(team.view).toMatchObject({ status: 'success', retry_count: 1 });
    await deliver('wechat', 'global', null);
    const sends = vendor.requests.filter((r) => r.path.startsWith('/wecom/cgi-bin/message/send'));
    expect(sends.map((r) => new URL(r.path, vendor.url).searchParams.get('access_token'))).toEqual([
      'wc-old',
      'wc-new',
      'wc-new',
    ]);
    const bodies = bodyOf('/wecom/cgi-bin/message/send');
    expect(bodies[1]).toMatchObject({
      touser: 'alice|bob|carol|erin',
      agentid: 1000002,
      msgtype: 'markdown',
    });
    expect(bodies[2]).toMatchObject({ touser: '@all' });
    expect(vendor.requests.filter((r) => r.path.startsWith('/wecom/cgi-bin/gettoken'))).toHaveLength(2);
  });

  it('Feishu app: tenant token by app id and secret, one message per recipient addressed by e-mail', async () => {
    vendor.requests.splice(0);
    h.settings.values = {
      feishu_enabled: true,
      feishu_notification_type: 'app',
      feishu_app_id: `cli_${crypto.randomUUID()}`,
      feishu_app_secret: 'fs-secret',
    };
    vendor.script({ body: { code: 0, tenant_access_token: 't-fs', expire: 7200 } });
    const { view } = await deliver('feishu', 'team', 'team-1');
    expect(view.status).toBe('success');
    const [token] = bodyOf('/feishu/open-apis/auth/v3/tenant_access_token/internal');
    expect(token).toEqual({ app_id: h.settings.values.feishu_app_id, app_secret: 'fs-secret' });
    const sends = vendor.requests.filter((r) => r.path.startsWith('/feishu/open-apis/im/v1/messages'));
    expect(sends.every((r) => r.headers.authorization === 'Bearer t-fs')).toBe(true);
    expect(sends.every((r) => r.path.includes('receive_id_type=email'))).toBe(true);
    const bodies = bodyOf('/feishu/open-apis/im/v1/messages');
    expect(bodies.map((b) => b.receive_id)).toEqual([
      'alice@example.com',
      'bob@example.com',
      'erin@example.com',
    ]);
    expect(JSON.parse(bodies[0].content).post.zh_cn.title).toContain('feishu team');
  });

  it('a vendor answering HTTP 200 with a non-zero code is a failure, never sent', async () => {
    h.settings.values = {
      feishu_enabled: true,
      feishu_notification_type: 'app',
      feishu_app_id: `cli_${crypto.randomUUID()}`,
      feishu_app_secret: 'fs-secret',
    };
    vendor.script(
      { body: { code: 0, tenant_access_token: 't-fs2', expire: 7200 } },
      { body: { code: 230001, msg: 'invalid receive_id' } },
    );
    const { view } = await deliver('feishu', 'user', 'u1');
    expect(view).toMatchObject({ status: 'failed', sent_at: null });
    expect(view.error_message).toBe('feishu rejected the message (code 230001): invalid receive_id');
  });
});
