import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { dingtalkMarkdown, dingtalkVerdict } from './dingtalk.js';
import { clip, permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';
import type {
  ChannelMessage,
  DingtalkApp,
  FetchedToken,
  SenderContext,
} from '../../domain/delivery/delivery-ports.js';

/** DingTalk's codes for an access token that is invalid or expired. */
export const DINGTALK_TOKEN_CODES = new Set([40014, 42001, 88]);

/** `GET /gettoken?appkey&appsecret` → `{errcode: 0, access_token, expires_in}`. */
export async function fetchDingtalkToken(app: DingtalkApp, context: SenderContext): Promise<FetchedToken> {
  const url = await checkDestination(`${app.baseUrl}/gettoken`, context.http);
  url.searchParams.set('appkey', app.appKey);
  url.searchParams.set('appsecret', app.appSecret);
  const body = vendorJson(await sendHttp(url, { method: 'GET', headers: {} }, context.http), 'dingtalk');
  if (Number(body.errcode) !== 0 || typeof body.access_token !== 'string') {
    const params = {
      channel: 'dingtalk',
      detail: clip(`${String(body.errcode)} ${String(body.errmsg ?? '')}`),
    };
    throw Number(body.errcode) === -1
      ? transientFailure('delivery_app_token_failed', params)
      : permanentFailure('delivery_app_token_failed', params);
  }
  return { token: body.access_token, expiresInSeconds: Number(body.expires_in ?? 7200) };
}

/**
 * A work notification from the app (`POST /topapi/message/corpconversation/asyncsend_v2`): to
 * every member of the organisation the app can see (`to_all_user`) or to DingTalk user ids (at most
 * 100 a call; the platform username is used as the DingTalk userid).
 */
export async function sendDingtalkAppMessage(
  app: DingtalkApp,
  token: string,
  to: { all: true } | { userIds: string[] },
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(
    `${app.baseUrl}/topapi/message/corpconversation/asyncsend_v2`,
    context.http,
  );
  url.searchParams.set('access_token', token);
  const body = JSON.stringify({
    agent_id: app.agentId,
    ...('all' in to ? { to_all_user: true } : { userid_list: to.userIds.join(',') }),
    msg: { msgtype: 'markdown', markdown: dingtalkMarkdown(message) },
  });
  const answer = await sendHttp(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    context.http,
  );
  dingtalkVerdict(vendorJson(answer, 'dingtalk'));
}
