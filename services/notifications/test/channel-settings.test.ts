import { describe, expect, it } from 'vitest';
import {
  CHANNEL_DEFAULTS,
  assertChannelsReady,
  channelProblem,
  channelSettingsFrom,
  type ChannelSettings,
} from '../src/domain/delivery/channel-settings.js';
import { mailFromAddress } from '@platform/contracts';
import { CHANNEL_NAMES } from '../src/domain/delivery-port.js';

// The channel-settings rules (domain/delivery/channel-settings.ts) without a server: reading identity's
// effective settings, the sender address, and each channel's "enabled / configured" check.

const settings = (overrides: Partial<ChannelSettings>): ChannelSettings => ({
  ...CHANNEL_DEFAULTS,
  ...overrides,
});

describe('channelSettingsFrom', () => {
  it('an empty map is the defaults: every channel off, SMTP 587 over TLS, webhook POST', () => {
    const read = channelSettingsFrom({});
    expect(read).toEqual(CHANNEL_DEFAULTS);
    expect(read).toMatchObject({ smtp_port: 587, smtp_encryption: 'tls', webhook_method: 'POST' });
    expect(CHANNEL_NAMES.filter((c) => channelProblem(c, read)?.endsWith('_not_enabled'))).toHaveLength(6);
  });

  it('keeps known names whose value has the default JSON type', () => {
    const read = channelSettingsFrom({ smtp_enabled: true, smtp_port: 2525, smtp_host: 'mail.example' });
    expect(read).toMatchObject({ smtp_enabled: true, smtp_port: 2525, smtp_host: 'mail.example' });
  });

  it('a value of another type, null or an unknown name falls back to the default (or is dropped)', () => {
    const read = channelSettingsFrom({
      smtp_enabled: 'true',
      smtp_port: '2525',
      smtp_host: null,
      webhook_headers: ['x'],
      not_a_setting: 'x',
    });
    expect(read).toEqual(CHANNEL_DEFAULTS);
    expect(read).not.toHaveProperty('not_a_setting');
  });

  it('headers keep only the string values of an object', () => {
    const read = channelSettingsFrom({
      webhook_headers: { 'x-a': 'one', 'x-b': 2, 'x-c': null, 'x-d': 'four' },
    });
    expect(read.webhook_headers).toEqual({ 'x-a': 'one', 'x-d': 'four' });
  });

  it('does not share the defaults object: headers read are a fresh object', () => {
    const read = channelSettingsFrom({ webhook_headers: { a: 'b' } });
    expect(CHANNEL_DEFAULTS.webhook_headers).toEqual({});
    expect(read.webhook_headers).not.toBe(CHANNEL_DEFAULTS.webhook_headers);
  });
});

describe('mailFromAddress', () => {
  it('email_from_address wins', () => {
    expect(
      mailFromAddress(settings({ email_from_address: 'from@x.example', smtp_username: 'u@y.example' })),
    ).toBe('from@x.example');
  });

  it('else the SMTP username when it is an address, else nothing', () => {
    expect(mailFromAddress(settings({ smtp_username: 'u@y.example' }))).toBe('u@y.example');
    expect(mailFromAddress(settings({ smtp_username: 'mailer' }))).toBe('');
    expect(mailFromAddress(settings({}))).toBe('');
  });
});

describe('channelProblem', () => {
  const smtpReady = { smtp_enabled: true, smtp_host: 'mail.example', email_from_address: 'a@b.example' };

  it('email: enabled, a host, a sender address and a port > 0', () => {
    expect(channelProblem('email', settings(smtpReady))).toBeNull();
    expect(channelProblem('email', settings({ ...smtpReady, smtp_enabled: false }))).toBe('smtp_not_enabled');
    expect(channelProblem('email', settings({ ...smtpReady, smtp_host: '  ' }))).toBe('smtp_not_configured');
    expect(channelProblem('email', settings({ ...smtpReady, email_from_address: '' }))).toBe(
      'smtp_not_configured',
    );
    expect(channelProblem('email', settings({ ...smtpReady, smtp_port: 0 }))).toBe('smtp_not_configured');
  });

  it('email: the SMTP username stands in for a missing sender address when it is one', () => {
    const viaUsername = { ...smtpReady, email_from_address: '', smtp_username: 'u@y.example' };
    expect(channelProblem('email', settings(viaUsername))).toBeNull();
  });

  it('not enabled is reported before not configured, unless enabled is ignored (a channel test)', () => {
    expect(channelProblem('slack', settings({}))).toBe('slack_not_enabled');
    expect(channelProblem('slack', settings({}), { ignoreEnabled: true })).toBe('slack_not_configured');
    expect(
      channelProblem('slack', settings({ slack_webhook_url: 'https://h.example' }), { ignoreEnabled: true }),
    ).toBeNull();
  });

  it('dingtalk: a webhook URL in webhook mode; key, secret and agent id in app mode', () => {
    const on = { dingtalk_enabled: true };
    expect(
      channelProblem('dingtalk', settings({ ...on, dingtalk_webhook_url: 'https://d.example' })),
    ).toBeNull();
    expect(channelProblem('dingtalk', settings(on))).toBe('dingtalk_not_configured');
    const app = {
      ...on,
      dingtalk_notification_type: 'app' as const,
      dingtalk_webhook_url: 'https://d.example',
    };
    expect(channelProblem('dingtalk', settings(app))).toBe('dingtalk_not_configured');
    const full = { ...app, dingtalk_app_key: 'k', dingtalk_app_secret: 's', dingtalk_agent_id: '1' };
    expect(channelProblem('dingtalk', settings(full))).toBeNull();
    expect(channelProblem('dingtalk', settings({ ...full, dingtalk_agent_id: ' ' }))).toBe(
      'dingtalk_not_configured',
    );
  });

  it('wechat: a webhook URL in webhook mode; corp id, agent id and secret in app mode', () => {
    const on = { wechat_enabled: true };
    expect(channelProblem('wechat', settings({ ...on, wechat_webhook_url: 'https://w.example' }))).toBeNull();
    expect(channelProblem('wechat', settings(on))).toBe('wechat_not_configured');
    const app = { ...on, wechat_notification_type: 'app' as const };
    const full = { ...app, wechat_corp_id: 'c', wechat_agent_id: '1', wechat_secret: 's' };
    expect(channelProblem('wechat', settings(full))).toBeNull();
    expect(channelProblem('wechat', settings({ ...full, wechat_secret: '' }))).toBe('wechat_not_configured');
    expect(channelProblem('wechat', settings({ wechat_webhook_url: 'https://w.example' }))).toBe(
      'wechat_not_enabled',
    );
  });

  it('feishu: a webhook URL in webhook mode; app id and secret in app mode', () => {
    const on = { feishu_enabled: true };
    expect(channelProblem('feishu', settings({ ...on, feishu_webhook_url: 'https://f.example' }))).toBeNull();
    expect(channelProblem('feishu', settings(on))).toBe('feishu_not_configured');
    const app = {
      ...on,
      feishu_notification_type: 'app' as const,
      feishu_app_id: 'i',
      feishu_app_secret: 's',
    };
    expect(channelProblem('feishu', settings(app))).toBeNull();
    expect(channelProblem('feishu', settings({ ...app, feishu_app_id: '' }))).toBe('feishu_not_configured');
    expect(channelProblem('feishu', settings({}))).toBe('feishu_not_enabled');
  });

  it('slack and webhook: a URL each', () => {
    expect(
      channelProblem('slack', settings({ slack_enabled: true, slack_webhook_url: 'https://s.example' })),
    ).toBeNull();
    expect(channelProblem('slack', settings({ slack_enabled: true }))).toBe('slack_not_configured');
    expect(
      channelProblem('webhook', settings({ webhook_enabled: true, webhook_url: 'https://h.example' })),
    ).toBeNull();
    expect(channelProblem('webhook', settings({ webhook_enabled: true, webhook_url: ' ' }))).toBe(
      'webhook_not_configured',
    );
    expect(channelProblem('webhook', settings({}))).toBe('webhook_not_enabled');
  });
});

describe('assertChannelsReady', () => {
  const slackReady = { slack_enabled: true, slack_webhook_url: 'https://s.example' };

  it('passes when every channel asked for can deliver (none asked: nothing to check)', () => {
    expect(() => assertChannelsReady(['slack'], settings(slackReady))).not.toThrow();
    expect(() => assertChannelsReady([], settings({}))).not.toThrow();
  });

  it("throws the first failing channel's key as a named 1002 error", () => {
    let thrown: unknown;
    try {
      assertChannelsReady(['slack', 'webhook', 'email'], settings(slackReady));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 1002, httpStatus: 400, data: { error_key: 'webhook_not_enabled' } });
  });
});
