import { randomUUID } from 'node:crypto';
import { toLocale, translate, type Locale } from '@platform/errors';
import type { ChannelName } from '../domain/delivery-port.js';
import { sendSmtpMail } from '../adapters/channels/email.js';
import { SendFailure } from '../adapters/channels/send-failure.js';
import { sendAppMessage } from './app-delivery.js';
import { channelProblem, channelSettingsFrom } from './channel-settings.js';
import { isAppMode, rateLimitOf, sendChat, type ChatChannel } from './chat-senders.js';
import type { DeliveryDoc } from './deliveries-repository.js';
import type { DeliveryDeps } from './delivery-deps.js';

export interface ChannelTestRequest {
  channel: ChannelName;
  /** Settings of that channel to try instead of the saved ones; never saved. */
  overrides: Record<string, unknown>;
  /** E-mail only: the address to send to (default: the caller's). */
  to?: string;
  /** The caller, whose address and (app modes) account a test reaches. */
  callerId: string;
  locale: string;
}

export interface ChannelTestResult {
  success: boolean;
  message: string;
}

/**
 * Sends one test message through a channel right away (not through the queue), with the saved
 * settings overlaid by `overrides`: an admin checks credentials before enabling or saving them,
 * so the channel's `*_enabled` flag is not required. The vendor's rate limit still applies.
 */
export async function testChannel(
  deps: DeliveryDeps,
  request: ChannelTestRequest,
): Promise<ChannelTestResult> {
  const locale: Locale = toLocale(request.locale) ?? 'en';
  const settings = channelSettingsFrom({ ...(await deps.settings.get()), ...request.overrides });
  const problem = channelProblem(request.channel, settings, { ignoreEnabled: true });
  const failed = (detail: string) => ({
    success: false,
    message: translate('channel_test_failed', locale, { detail }),
  });
  if (problem) return failed(translate(problem, locale));
  const title = translate('channel_test_title', locale);
  const content = translate('channel_test_content', locale, { channel: request.channel });
  try {
    if (request.channel === 'email') {
      const to = request.to ?? (await deps.directory.contacts([request.callerId]))[0]?.email;
      if (!to) return failed(translate('delivery_no_recipients', locale));
      await sendSmtpMail(settings, { to, subject: title, text: content, locale }, deps.smtp);
    } else {
      const channel = request.channel as ChatChannel;
      const limit = rateLimitOf(channel, settings);
      const wait = await deps.limiter.take(limit.key, limit.windows);
      if (wait > 0) {
        return failed(translate('channel_test_rate_limited', locale, { seconds: Math.ceil(wait / 1000) }));
      }
      const message = { deliveryId: randomUUID(), title, content, linkUrl: null };
      if (isAppMode(channel, settings)) {
        const doc = {
          _id: message.deliveryId,
          message: { scope: 'user', user_id: request.callerId, team_id: null },
        } as DeliveryDoc;
        await sendAppMessage(deps, channel, settings, doc, message);
      } else {
        await sendChat(channel, settings, message, { http: deps.http, now: deps.now });
      }
    }
  } catch (err) {
    if (err instanceof SendFailure) return failed(translate(err.key, locale, err.params));
    throw err;
  }
  return { success: true, message: translate('channel_test_succeeded', locale) };
}
