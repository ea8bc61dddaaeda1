import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { wecomMarkdown, wecomVerdict } from './wecom.js';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';
import type {
  ChannelMessage,
  FetchedToken,
  SenderContext,
  WecomApp,
} from '../../domain/delivery/delivery-ports.js';

/** WeCom's codes for an access token that is invalid or expired. */
export const WECOM_TOKEN_CODES = new Set([40014, 42001]);

/** `GET /cgi-bin/gettoken?corpid&corpsecret` → `{errcode: 0, access_token, expires_in}`. */
export async function fetchWecomToken(app: WecomApp, context: SenderContext): Promise<FetchedToken> {
  const url = await checkDestination(`${app.baseUrl}/cgi-bin/gettoken`, context.http);
  url.searchParams.set('corpid', app.corpId);
  url.searchParams.set('corpsecret', app.secret);
  const body = vendorJson(await sendHttp(url, { method: 'GET', headers: {} }, context.http), 'wechat');
  if (Number(body.errcode) !== 0 || typeof body.access_token !== 'string') {
    const params = {
      channel: 'wechat',
      detail: clip(`${String(body.errcode)} ${String(body.errmsg ?? '')}`),
    };
    throw Number(body.errcode) === -1
      ? transientFailure('delivery_app_token_failed', params)
      : permanentFailure('delivery_app_token_failed', params);
  }
  return { token: body.access_token, expiresInSeconds: Number(body.expires_in ?? 7200) };
}

/**
 * An application message (`POST /cgi-bin/message/send`): to `@all` (everyone in the app's
 * visible range) or to WeCom UserIDs joined by `|` (at most 1000 a call; the platform username is
 * used as the UserID).
 */
export async function sendWecomAppMessage(
  app: WecomApp,
  token: string,
  to: { all: true } | { userIds: string[] },
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(`${app.baseUrl}/cgi-bin/message/send`, context.http);
  url.searchParams.set('access_token', token);
  const body = JSON.stringify({
    touser: 'all' in to ? '@all' : to.userIds.join('|'),
    msgtype: 'markdown',
    agentid: Number(app.agentId),
    markdown: wecomMarkdown(message),
  });
  const answer = await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    context.http,
  );
  wecomVerdict(vendorJson(answer, 'wechat'));
}
