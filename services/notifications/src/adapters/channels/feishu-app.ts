import { checkDestination, sendHttp, vendorJson } from './http-send.js';
import { feishuPost, feishuVerdict } from './feishu.js';
import { clip, permanentFailure } from '../../domain/delivery/delivery-ports.js';
import type {
  ChannelMessage,
  FeishuApp,
  FetchedToken,
  SenderContext,
} from '../../domain/delivery/delivery-ports.js';

/** Feishu's codes for an invalid or expired tenant access token. */
export const FEISHU_TOKEN_CODES = new Set([99991663, 99991664, 99991661]);

/** `POST /open-apis/auth/v3/tenant_access_token/internal` → `{code: 0, tenant_access_token, expire}`. */
export async function fetchFeishuToken(app: FeishuApp, context: SenderContext): Promise<FetchedToken> {
  const url = await checkDestination(
    `${app.baseUrl}/open-apis/auth/v3/tenant_access_token/internal`,
    context.http,
  );
  const answer = await sendHttp(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ app_id: app.appId, app_secret: app.appSecret }),
    },
    context.http,
  );
  const body = vendorJson(answer, 'feishu');
  if (Number(body.code) !== 0 || typeof body.tenant_access_token !== 'string') {
    throw permanentFailure('delivery_app_token_failed', {
      channel: 'feishu',
      detail: clip(`${String(body.code)} ${String(body.msg ?? '')}`),
    });
  }
  return { token: body.tenant_access_token, expiresInSeconds: Number(body.expire ?? 7200) };
}

/**
 * A message from the app to one user, addressed by e-mail
 * (`POST /open-apis/im/v1/messages?receive_id_type=email`, content as a JSON string).
 */
export async function sendFeishuAppMessage(
  app: FeishuApp,
  token: string,
  email: string,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(`${app.baseUrl}/open-apis/im/v1/messages`, context.http);
  url.searchParams.set('receive_id_type', 'email');
  const body = JSON.stringify({
    receive_id: email,
    msg_type: 'post',
    content: JSON.stringify(feishuPost(message)),
  });
  const answer = await sendHttp(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
      body,
    },
    context.http,
  );
  feishuVerdict(vendorJson(answer, 'feishu'));
}
