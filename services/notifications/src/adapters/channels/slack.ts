import { checkDestination, sendHttp } from './http-send.js';
import { truncateBytes } from './channel-message.js';
import type { ChannelMessage, SenderContext } from '../../domain/delivery/delivery-ports.js';

/** Slack's three control characters in message text (https://api.slack.com/reference/surfaces/formatting). */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The incoming-webhook body: mrkdwn `text` (bold title, content, link). */
export function slackBody(message: ChannelMessage): string {
  const link = message.linkUrl ? `\n<${message.linkUrl.replace(/[<>|]/g, encodeURIComponent)}>` : '';
  const text = `*${slackEscape(message.title)}*\n${slackEscape(message.content)}${link}`;
  return JSON.stringify({ text: truncateBytes(text, 39_000) });
}

/**
 * Slack incoming webhook: `POST` JSON `{text}`; Slack answers 200 `ok`, or 4xx with a reason
 * (`invalid_payload`, `no_service`: permanent), 429 with Retry-After (transient).
 */
export async function sendSlack(
  webhookUrl: string,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(webhookUrl, context.http);
  await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: slackBody(message) },
    context.http,
  );
}
