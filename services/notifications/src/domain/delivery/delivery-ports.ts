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
 * (delivery/retry-policy.ts); permanent ones fail the delivery at once. `retryAfterMs` is the
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
