import { randomUUID } from 'node:crypto';
import { urlOrigin } from '@platform/outbound-http';
import { toLocale, translate, type Locale } from '@platform/errors';
import type { RequestOrigin } from '@platform/grpc';
import type { ChannelName } from '../delivery-port.js';
import { SendFailure } from './delivery-ports.js';
import { sendAppMessage } from './app-delivery.js';
import { channelProblem, type ChannelSettings } from './channel-settings.js';
import { isAppMode, rateLimitOf, type ChatChannel } from './chat-senders.js';
import type { DeliveryDoc } from '../../data/models.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { settingsForTest } from './test-overrides.js';

export interface ChannelTestRequest {
  channel: ChannelName;
  /** Settings of that channel to try instead of the saved ones; never saved. */
  overrides: Record<string, unknown>;
  /** E-mail only: the address to send to (default: the caller's). */
  to?: string;
  /** The caller, whose address and (app modes) account a test reaches. */
  callerId: string;
  callerName: string;
  origin: RequestOrigin;
  locale: string;
}

export interface ChannelTestResult {
  success: boolean;
  message: string;
}

/** Why a test did not send: a message key and its parameters. */
type TestFailure = { key: string; params?: Record<string, string | number> };

/**
 * Sends one test message through a channel right away (not through the queue), with the saved
 * settings overlaid by `overrides`: an admin checks credentials before enabling or saving them,
 * so the channel's `*_enabled` flag is not required. The vendor's rate limit still applies. A
 * destination other than the saved one goes without the saved secrets (test-overrides.ts), and
 * every test is audited (who, channel, destination host, outcome) before anything is sent.
 */
export async function testChannel(
  deps: DeliveryDeps,
  request: ChannelTestRequest,
): Promise<ChannelTestResult> {
  const locale: Locale = toLocale(request.locale) ?? 'en';
  const { settings, droppedSecrets } = settingsForTest(
    request.channel,
    await deps.settings.get(),
    request.overrides,
  );
  const auditId = await deps.testAudit.started({
    channel: request.channel,
    actor_user_id: request.callerId,
    actor_username: request.callerName,
    ip: request.origin.ip,
    user_agent: request.origin.userAgent,
    request_id: request.origin.requestId,
    destination: testDestination(request.channel, settings, deps.appBaseUrls),
    overridden: Object.keys(request.overrides).sort(),
    dropped_secrets: droppedSecrets,
    at: new Date(deps.now()),
  });
  const failure = await sendTest(deps, request, settings, locale).catch(async (err: unknown) => {
    await deps.testAudit.finished(auditId, 'error').catch(() => undefined);
    throw err;
  });
  await deps.testAudit.finished(auditId, failure?.key ?? null);
  if (!failure) return { success: true, message: translate('channel_test_succeeded', locale) };
  const detail = translate(failure.key, locale, failure.params);
  return { success: false, message: translate('channel_test_failed', locale, { detail }) };
}

/** One test message; the failure (null when sent). */
async function sendTest(
  deps: DeliveryDeps,
  request: ChannelTestRequest,
  settings: ChannelSettings,
  locale: Locale,
): Promise<TestFailure | null> {
  const problem = channelProblem(request.channel, settings, { ignoreEnabled: true });
  if (problem) return { key: problem };
  const title = translate('channel_test_title', locale);
  const content = translate('channel_test_content', locale, { channel: request.channel });
  try {
    if (request.channel === 'email') {
      const to = request.to ?? (await deps.directory.contacts([request.callerId]))[0]?.email;
      if (!to) return { key: 'delivery_no_recipients' };
      await deps.senders.mail(settings, { to, subject: title, text: content, locale });
      return null;
    }
    const channel = request.channel as ChatChannel;
    const limit = rateLimitOf(channel, settings);
    const wait = await deps.limiter.take(limit.key, limit.windows);
    if (wait > 0) return { key: 'channel_test_rate_limited', params: { seconds: Math.ceil(wait / 1000) } };
    const message = { deliveryId: randomUUID(), title, content, linkUrl: null };
    if (isAppMode(channel, settings)) {
      const doc = {
        _id: message.deliveryId,
        message: { scope: 'user', user_id: request.callerId, team_id: null },
      } as DeliveryDoc;
      await sendAppMessage(deps, channel, settings, doc, message);
    } else {
      await deps.senders.chat(channel, settings, message, { http: deps.http, now: deps.now });
    }
    return null;
  } catch (err) {
    if (err instanceof SendFailure) return { key: err.key, params: err.params };
    throw err;
  }
}

const originOf = (url: string) => urlOrigin(url) ?? '';

/** Where a test of `channel` with these settings sends to, without path, query or credentials. */
export function testDestination(
  channel: ChannelName,
  s: ChannelSettings,
  appBaseUrls: Record<'dingtalk' | 'wechat' | 'feishu', string>,
): string {
  if (channel === 'email') return `${s.smtp_host.trim()}:${s.smtp_port}`;
  if (isAppMode(channel as ChatChannel, s)) return originOf(appBaseUrls[channel as keyof typeof appBaseUrls]);
  const urls: Record<Exclude<ChannelName, 'email'>, string> = {
    dingtalk: s.dingtalk_webhook_url,
    wechat: s.wechat_webhook_url,
    feishu: s.feishu_webhook_url,
    slack: s.slack_webhook_url,
    webhook: s.webhook_url,
  };
  return originOf(urls[channel]);
}
