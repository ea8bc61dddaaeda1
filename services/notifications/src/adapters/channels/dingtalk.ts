import { createHmac } from 'node:crypto';
import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { markdownBody, truncateBytes } from './channel-message.js';
import type { ChannelMessage, SenderContext } from '../../domain/delivery/delivery-ports.js';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';

/** DingTalk's robot throttle (130101) silences the robot for 10 minutes: wait that long. */
export const DINGTALK_THROTTLE_MS = 10 * 60_000;
/** -1 "system busy" and 130101 "send too fast" are worth another try; every other code is final. */
const TRANSIENT_CODES = new Set([-1, 130101]);

/** `sign` = base64(HMAC-SHA256(secret, `${timestamp}\n${secret}`)), as the robot's "加签" mode wants. */
export function dingtalkSign(secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
}

/** DingTalk answers 200 with `errcode`; anything but 0 is a failure (never "sent"). */
export function dingtalkVerdict(body: Record<string, unknown>, channel = 'dingtalk'): void {
  const code = Number(body.errcode ?? Number.NaN);
  if (code === 0) return;
  const params = {
    channel,
    code: Number.isNaN(code) ? 'none' : code,
    detail: clip(String(body.errmsg ?? '')),
  };
  if (TRANSIENT_CODES.has(code)) {
    throw transientFailure(
      'delivery_vendor_rejected',
      params,
      code === 130101 ? DINGTALK_THROTTLE_MS : undefined,
    );
  }
  throw permanentFailure('delivery_vendor_rejected', params);
}

export function dingtalkMarkdown(message: ChannelMessage): { title: string; text: string } {
  return { title: truncateBytes(message.title, 200), text: truncateBytes(markdownBody(message), 19_000) };
}

/**
 * DingTalk custom robot: `POST <webhook>&timestamp=<ms>&sign=<urlencoded>` (when a secret is set)
 * with a markdown message.
 */
export async function sendDingtalkRobot(
  webhookUrl: string,
  secret: string,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(webhookUrl, context.http);
  if (secret) {
    const timestamp = context.now();
    url.searchParams.set('timestamp', String(timestamp));
    url.searchParams.set('sign', dingtalkSign(secret, timestamp));
  }
  const body = JSON.stringify({ msgtype: 'markdown', markdown: dingtalkMarkdown(message) });
  const answer = await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    context.http,
  );
  dingtalkVerdict(vendorJson(answer, 'dingtalk'));
}
