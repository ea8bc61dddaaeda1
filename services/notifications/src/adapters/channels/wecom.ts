import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { markdownBody, truncateBytes } from './channel-message.js';
import type { ChannelMessage, SenderContext } from '../../domain/delivery/delivery-ports.js';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';

/** -1 system busy; 45009 API frequency limit; 45033 too many concurrent calls: retry after a minute. */
const TRANSIENT_CODES = new Set([-1, 45009, 45033]);
export const WECOM_THROTTLE_MS = 60_000;

/** WeCom answers 200 with `errcode`; anything but 0 is a failure. */
export function wecomVerdict(body: Record<string, unknown>): void {
  const code = Number(body.errcode ?? Number.NaN);
  if (code === 0) return;
  const params = {
    channel: 'wechat',
    code: Number.isNaN(code) ? 'none' : code,
    detail: clip(String(body.errmsg ?? '')),
  };
  if (TRANSIENT_CODES.has(code)) {
    throw transientFailure('delivery_vendor_rejected', params, code === -1 ? undefined : WECOM_THROTTLE_MS);
  }
  throw permanentFailure('delivery_vendor_rejected', params);
}

/** WeCom markdown content is limited to 4096 bytes. */
export function wecomMarkdown(message: ChannelMessage): { content: string } {
  return { content: truncateBytes(markdownBody(message), 4096) };
}

/** WeCom group robot: `POST <webhook ?key=…>` with `{msgtype: markdown, markdown: {content}}`. */
export async function sendWecomRobot(
  webhookUrl: string,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(webhookUrl, context.http);
  const body = JSON.stringify({ msgtype: 'markdown', markdown: wecomMarkdown(message) });
  const answer = await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    context.http,
  );
  wecomVerdict(vendorJson(answer, 'wechat'));
}
