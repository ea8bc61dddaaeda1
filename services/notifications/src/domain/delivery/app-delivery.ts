import { SendFailure, transientFailure, type ChannelMessage, type SenderContext } from './delivery-ports.js';
import type { Contact } from '../identity-port.js';
import type { ChannelSettings } from './channel-settings.js';
import type { ChatChannel } from './chat-senders.js';
import type { DeliveryDoc } from '../../data/models.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { recipientPage } from './recipients.js';

/** Every recipient of the notification (resolved as for e-mail), collected from all pages. */
async function recipients(deps: DeliveryDeps, doc: DeliveryDoc, needsEmail: boolean): Promise<Contact[]> {
  const all: Contact[] = [];
  let cursor = '';
  do {
    const page = await recipientPage(deps.directory, doc.message, cursor, deps.emailBatchSize, {
      needsEmail,
    });
    all.push(...page.contacts);
    cursor = page.next;
  } while (cursor);
  return all;
}

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_v, i) => items.slice(i * size, (i + 1) * size));

/**
 * Runs `send` with the app's cached token; a token the vendor calls invalid is dropped and the
 * attempt counts as transient, so the retry fetches a fresh one.
 */
async function withToken(
  deps: DeliveryDeps,
  vendor: string,
  credentials: string,
  fetch: () => Promise<{ token: string; expiresInSeconds: number }>,
  tokenCodes: ReadonlySet<number>,
  send: (token: string) => Promise<void>,
): Promise<void> {
  const token = await deps.appTokens.get(vendor, credentials, fetch);
  try {
    await send(token);
  } catch (err) {
    if (err instanceof SendFailure && tokenCodes.has(Number(err.params.code))) {
      await deps.appTokens.forget(vendor, credentials);
      throw transientFailure(err.key, err.params);
    }
    throw err;
  }
}

/**
 * App modes (docs/notifications-delivery.md "App modes"): DingTalk and WeCom address users by
 * their platform username as the vendor user id and reach everyone in the app's range for a
 * `global` notification; Feishu addresses each recipient by e-mail. Recipients are resolved like
 * e-mail: `user` → that user, `team` → its members, `global` → every active user.
 */
export async function sendAppMessage(
  deps: DeliveryDeps,
  channel: ChatChannel,
  s: ChannelSettings,
  doc: DeliveryDoc,
  message: ChannelMessage,
): Promise<void> {
  const context: SenderContext = { http: deps.http, now: deps.now };
  const everyone = doc.message.scope === 'global';
  if (channel === 'dingtalk') {
    const app = {
      baseUrl: deps.appBaseUrls.dingtalk,
      appKey: s.dingtalk_app_key,
      appSecret: s.dingtalk_app_secret,
      agentId: s.dingtalk_agent_id,
    };
    const credentials = `${app.appKey}:${app.appSecret}`;
    const fetch = () => deps.senders.apps.dingtalk.fetchToken(app, context);
    if (everyone) {
      return withToken(deps, 'dingtalk', credentials, fetch, deps.senders.apps.dingtalk.tokenCodes, (token) =>
        deps.senders.apps.dingtalk.send(app, token, { all: true }, message, context),
      );
    }
    const usernames = (await recipients(deps, doc, false)).map((c) => c.username);
    for (const ids of chunks(usernames, 100)) {
      await withToken(deps, 'dingtalk', credentials, fetch, deps.senders.apps.dingtalk.tokenCodes, (token) =>
        deps.senders.apps.dingtalk.send(app, token, { userIds: ids }, message, context),
      );
    }
    return;
  }
  if (channel === 'wechat') {
    const app = {
      baseUrl: deps.appBaseUrls.wechat,
      corpId: s.wechat_corp_id,
      agentId: s.wechat_agent_id,
      secret: s.wechat_secret,
    };
    const credentials = `${app.corpId}:${app.secret}`;
    const fetch = () => deps.senders.apps.wechat.fetchToken(app, context);
    if (everyone) {
      return withToken(deps, 'wechat', credentials, fetch, deps.senders.apps.wechat.tokenCodes, (token) =>
        deps.senders.apps.wechat.send(app, token, { all: true }, message, context),
      );
    }
    const usernames = (await recipients(deps, doc, false)).map((c) => c.username);
    for (const ids of chunks(usernames, 1000)) {
      await withToken(deps, 'wechat', credentials, fetch, deps.senders.apps.wechat.tokenCodes, (token) =>
        deps.senders.apps.wechat.send(app, token, { userIds: ids }, message, context),
      );
    }
    return;
  }
  if (channel === 'feishu') {
    const app = { baseUrl: deps.appBaseUrls.feishu, appId: s.feishu_app_id, appSecret: s.feishu_app_secret };
    const credentials = `${app.appId}:${app.appSecret}`;
    const fetch = () => deps.senders.apps.feishu.fetchToken(app, context);
    for (const contact of await recipients(deps, doc, true)) {
      await withToken(deps, 'feishu', credentials, fetch, deps.senders.apps.feishu.tokenCodes, (token) =>
        deps.senders.apps.feishu.send(app, token, contact.email, message, context),
      );
    }
    return;
  }
  throw new Error(`${channel} has no app mode`);
}
