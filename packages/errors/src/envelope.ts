import type { BusinessError } from './business-error.js';
import { translate } from './locale.js';
import type { MsgKey } from './messages.js';
import type { ErrorData, Locale } from './types.js';

/** Every response body: `code` 0 on success, non-zero on failure; `msg` localized. */
export interface Envelope<T = unknown> {
  code: number;
  data: T;
  msg: string;
}
export type SuccessEnvelope<T> = Envelope<T> & { code: 0 };
export type ErrorEnvelope = Envelope<ErrorData>;

/** `data` of every paged list. */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface OkOptions {
  /** Success message key; default `success`. */
  msgKey?: MsgKey;
  /** Values for the message's `{placeholders}`, e.g. `{ count: 3 }` for `notifications_created`. */
  params?: Record<string, unknown>;
}

/** Success envelope: `{code: 0, data, msg}`. */
export function ok<T>(data: T, locale: Locale, options: OkOptions = {}): SuccessEnvelope<T> {
  return { code: 0, data, msg: translate(options.msgKey ?? 'success', locale, options.params) };
}

/** Error envelope: `{code, data, msg}` with `msg` the localized text of the error's msg key. */
export function fail(error: BusinessError, locale: Locale): ErrorEnvelope {
  return { code: error.code, data: error.data, msg: translate(error.msgKey, locale, error.data) };
}

/** Builds a `Paged<T>`. */
export function paged<T>(items: T[], total: number, page: number, pageSize: number): Paged<T> {
  return { items, total, page, page_size: pageSize };
}
