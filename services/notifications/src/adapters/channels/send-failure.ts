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
  constructor(
    readonly key: DeliveryErrorKey,
    readonly params: FailureParams,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(`${key} ${JSON.stringify(params)}`);
    this.name = 'SendFailure';
  }
}

export const transientFailure = (key: DeliveryErrorKey, params: FailureParams, retryAfterMs?: number) =>
  new SendFailure(key, params, true, retryAfterMs);

export const permanentFailure = (key: DeliveryErrorKey, params: FailureParams) =>
  new SendFailure(key, params, false);

/** Keeps stored error details short and single-line (a receiver may answer with a whole page). */
export function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
