import type { SmtpSettings as SharedSmtpSettings } from '@platform/contracts';
import type { ChannelSettings } from './channel-settings.js';
import type { ChatChannel } from './chat-senders.js';

// The delivery side's one port file: what the delivery use cases need from outside (the channels'
// senders, the settings, the app tokens) and the failure every sender throws. adapters/channels/
// implements it; delivery-area.ts hands the implementations over.

/** Message keys a delivery failure is stored under (localized when read; packages/errors). */
export type DeliveryErrorKey =
  | 'delivery_http_status'
  | 'delivery_timeout'
  | 'delivery_connection_failed'
  | 'delivery_vendor_rejected'
  | 'delivery_smtp_rejected'
  | 'delivery_channel_unavailable'
  | 'delivery_no_recipients'
  | 'delivery_url_refused'
  | 'delivery_app_token_failed'
  | 'delivery_recipients_failed';

export type FailureParams = Record<string, string | number>;

/**
 * Why one send attempt failed. `transient` failures are retried on the channel's schedule
 * (retry-policy.ts); permanent ones fail the delivery at once. `retryAfterMs` is the
 * receiver's own wish (Retry-After, a vendor's throttle window) and is never undercut.
 */
export class SendFailure extends Error {
  /** Stored on the delivery and shown to admins: any URL in a text is cut to its origin. */
  readonly params: FailureParams;

  constructor(
    readonly key: DeliveryErrorKey,
    params: FailureParams,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    const redacted = Object.fromEntries(
      Object.entries(params).map(([name, value]) => [
        name,
        typeof value === 'string' ? redactUrls(value) : value,
      ]),
    );
    super(`${key} ${JSON.stringify(redacted)}`);
    this.name = 'SendFailure';
    this.params = redacted;
  }
}

// scheme://authority, then everything up to the next whitespace, quote or bracket.
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#()<>"'`]*)[^\s()<>"'`]*/gi;

/**
 * Cuts every URL in a text to its origin: chat robot URLs carry their token in the path (Slack,
 * Feishu) or the query (WeCom `key`, DingTalk `access_token`), app modes their secret in the
 * query, and Node's and the guard's error messages quote the URL. Userinfo goes too.
 */
export function redactUrls(text: string): string {
  return text.replace(
    URL_IN_TEXT,
    (_url, scheme: string, authority: string) => `${scheme}${authority.replace(/^.*@/, '')}`,
  );
}

export const transientFailure = (key: DeliveryErrorKey, params: FailureParams, retryAfterMs?: number) =>
  new SendFailure(key, params, true, retryAfterMs);

export const permanentFailure = (key: DeliveryErrorKey, params: FailureParams) =>
  new SendFailure(key, params, false);

/** Keeps stored error details short and single-line (a receiver may answer with a whole page). */
export function clip(text: string, max = 200): string {
  const flat = redactUrls(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** What every chat sender renders: one message per notification. */
export interface ChannelMessage {
  /** The delivery's id: the webhook's `webhook-id`, the same on every retry. */
  deliveryId: string;
  title: string;
  content: string;
  linkUrl: string | null;
}

export interface SenderContext {
  http: HttpTarget;
  /** Epoch ms; tests pass a clock. */
  now: () => number;
}

export interface HttpTarget {
  /** Let destinations on loopback and private networks through (local stacks, tests); never metadata. */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

/**
 * What caused a delivery — the request or event it was scheduled under — kept on the delivery so
 * its later attempts (retries, rate-limit waits, a dead worker's lease handed on: all submitted by
 * the reconciler) join that trace and log under that request id, like the first attempt.
 */
export interface DeliveryOrigin {
  /** W3C `traceparent` of the scheduling span; null when nothing was being traced. */
  trace_parent: string | null;
  request_id: string | null;
}

export interface FetchedToken {
  token: string;
  /** Lifetime the vendor gave (seconds). */
  expiresInSeconds: number;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  locale?: string;
}

export interface DingtalkApp {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  agentId: string;
}

export interface WecomApp {
  baseUrl: string;
  corpId: string;
  agentId: string;
  secret: string;
}

export interface FeishuApp {
  baseUrl: string;
  appId: string;
  appSecret: string;
}

/**
 * The site settings as identity's GetEffectiveSettings gives them (secrets decrypted). In
 * production this is `@platform/settings-client` (cached, dropped on `settings.changed`).
 */
export interface SettingsSource {
  get(): Promise<Readonly<Record<string, unknown>>>;
}

/** The vendor app access tokens, shared by the replicas (adapters/channels/app-token-cache.ts). */
export interface AppTokens {
  get(vendor: string, credentials: string, fetch: () => Promise<FetchedToken>): Promise<string>;
  /** Drops a token the vendor called invalid: the next attempt fetches a fresh one. */
  forget(vendor: string, credentials: string): Promise<void>;
}

/** The settings one SMTP send reads: the shared rule's, less the switch (checked before a send). */
export type SmtpSettings = Omit<SharedSmtpSettings, 'smtp_enabled'>;

/** One vendor app (app modes): its token and one message to an audience. */
export interface AppSender<App, Audience> {
  /** Vendor error codes that mean the token is invalid or expired. */
  tokenCodes: ReadonlySet<number>;
  fetchToken(app: App, context: SenderContext): Promise<FetchedToken>;
  send(app: App, token: string, to: Audience, message: ChannelMessage, context: SenderContext): Promise<void>;
}

export type AppAudience = { all: true } | { userIds: string[] };

/** Every channel's sender; each throws a SendFailure when the attempt fails. */
export interface ChannelSenders {
  /** One robot or webhook message (DingTalk, WeCom and Feishu robots, Slack, the webhook). */
  chat(
    channel: ChatChannel,
    settings: ChannelSettings,
    message: ChannelMessage,
    context: SenderContext,
  ): Promise<void>;
  /** One mail over the site's SMTP server (the address rule and extra CA are the adapter's). */
  mail(settings: SmtpSettings, mail: OutgoingMail): Promise<void>;
  apps: {
    dingtalk: AppSender<DingtalkApp, AppAudience>;
    wechat: AppSender<WecomApp, AppAudience>;
    /** Feishu addresses each recipient by e-mail. */
    feishu: AppSender<FeishuApp, string>;
  };
}
