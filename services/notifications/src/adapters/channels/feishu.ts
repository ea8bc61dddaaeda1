import { createHmac } from 'node:crypto';
import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { truncateBytes } from './channel-message.js';
import type { ChannelMessage, SenderContext } from '../../domain/delivery/delivery-ports.js';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';

/** 11232 "frequency limited" (robot), 99991400 (app API rate limit): retry; all else is final. */
const TRANSIENT_CODES = new Set([11232, 99991400]);
export const FEISHU_THROTTLE_MS = 60_000;

/**
 * Feishu's robot signature: HMAC-SHA256 keyed with `${timestamp}\n${secret}` over an EMPTY message,
 * base64 (timestamp in seconds; the robot refuses one older than an hour).
 */
export function feishuSign(secret: string, timestampSeconds: number): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** Feishu answers 200 with `code` (older robots: `StatusCode`); anything but 0 is a failure. */
export function feishuVerdict(body: Record<string, unknown>): void {
  const raw = body.code ?? body.StatusCode;
  const code = Number(raw ?? Number.NaN);
  if (code === 0) return;
  const params = {
    channel: 'feishu',
    code: Number.isNaN(code) ? 'none' : code,
    detail: clip(String(body.msg ?? body.StatusMessage ?? '')),
  };
  if (TRANSIENT_CODES.has(code))
    throw transientFailure('delivery_vendor_rejected', params, FEISHU_THROTTLE_MS);
  throw permanentFailure('delivery_vendor_rejected', params);
}

/** A rich-text (`post`) message: title, the content, and the link as a clickable line. */
export function feishuPost(message: ChannelMessage): Record<string, unknown> {
  const lines: Record<string, string>[][] = [[{ tag: 'text', text: truncateBytes(message.content, 15_000) }]];
  if (message.linkUrl) lines.push([{ tag: 'a', text: message.linkUrl, href: message.linkUrl }]);
  return { post: { zh_cn: { title: truncateBytes(message.title, 500), content: lines } } };
}

/** Feishu/Lark custom robot: `POST <webhook>` with `{timestamp, sign, msg_type: post, content}`. */
export async function sendFeishuRobot(
  webhookUrl: string,
  secret: string,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(webhookUrl, context.http);
  const timestamp = Math.floor(context.now() / 1000);
  const body = JSON.stringify({
    ...(secret ? { timestamp: String(timestamp), sign: feishuSign(secret, timestamp) } : {}),
    msg_type: 'post',
    content: feishuPost(message),
  });
  const answer = await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    context.http,
  );
  feishuVerdict(vendorJson(answer, 'feishu'));
}
