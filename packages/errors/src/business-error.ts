import { getCatalogEntry, isErrorCode } from './catalog.js';
import { ErrorCode, type ErrorConstant } from './codes.js';
import { translate } from './locale.js';
import type { MsgKey } from './messages.js';
import { NAMED_ERRORS, type NamedErrorKey } from './named-errors.js';
import type { ErrorData } from './types.js';

export interface BusinessErrorOptions {
  /** Message key; defaults to the catalog's key for the code (e.g. 5002 → `username_exists`). */
  msgKey?: MsgKey;
  /** Extra fields for the envelope's `data` (e.g. `{ lockout_seconds: 900 }`); also fills `{placeholders}`. */
  data?: ErrorData;
  /** HTTP status; defaults to the catalog's (see the entry's `alternateStatuses` for the spec's overrides). */
  httpStatus?: number;
  /**
   * Whether `data.error_key` carries `msgKey`. Default: only when `msgKey` differs from the code's
   * default key. `BusinessError.named()` always sets it.
   */
  errorKey?: boolean;
  cause?: unknown;
}

/** Plain form of a BusinessError, e.g. to carry it across gRPC (see `BusinessError.fromPayload`). */
export interface BusinessErrorPayload {
  code: number;
  msgKey: string;
  data: ErrorData;
  httpStatus: number;
}

/**
 * A failure the API reports as `{code, data, msg}`: `code` from `ErrorCode`, `msg` the localized
 * text of `msgKey`, `httpStatus` the coarse hint.
 *
 * The `data.error_key` rule (ARCHITECTURE: "a failure the spec names by key carries that key as
 * `data.error_key` beside any other `data` fields, and `msg` is its localized text"): when the
 * msg key differs from the code's catalog default, e.g. 1002 raised as `notification_scope_requires_team`,
 * the constructor adds `data.error_key = msgKey` automatically. `BusinessError.named(key)` sets it
 * even when the key is the code's default (`team_admin_required` on 3003). An `error_key`
 * already present in `data` is kept.
 */
export class BusinessError extends Error {
  readonly code: ErrorCode;
  readonly msgKey: string;
  readonly data: ErrorData;
  readonly httpStatus: number;

  constructor(code: ErrorCode, options: BusinessErrorOptions = {}) {
    const entry = getCatalogEntry(code);
    const defaultKey: string = entry?.msgKey ?? 'unknown_error';
    const msgKey: string = options.msgKey ?? defaultKey;
    const data = withErrorKey(options.data ?? null, msgKey, options.errorKey ?? msgKey !== defaultKey);
    super(translate(msgKey, 'en', data), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BusinessError';
    this.code = code;
    this.msgKey = msgKey;
    this.data = data;
    this.httpStatus = options.httpStatus ?? entry?.httpStatus ?? 400;
  }

  /** The code's constant name, e.g. `'USERNAME_EXISTS'`. */
  get constant(): ErrorConstant | undefined {
    return getCatalogEntry(this.code)?.constant;
  }

  /** Request validation failure: code 1001, HTTP 422 (pass `httpStatus: 400` when raised by a service). */
  static validation(
    errors: Record<string, string[]>,
    options: Omit<BusinessErrorOptions, 'data'> & { data?: Record<string, unknown> } = {},
  ): BusinessError {
    return new BusinessError(ErrorCode.VALIDATION_ERROR, { ...options, data: { ...options.data, errors } });
  }

  /**
   * A failure the spec names by key, with the code pinned in `NAMED_ERRORS`, e.g.
   * `BusinessError.named('smtp_not_enabled')` → 1002 / HTTP 400, `data.error_key = 'smtp_not_enabled'`.
   */
  static named(
    key: NamedErrorKey,
    options: Omit<BusinessErrorOptions, 'msgKey' | 'errorKey'> = {},
  ): BusinessError {
    const named: { code: ErrorCode; httpStatus?: number } = NAMED_ERRORS[key];
    return new BusinessError(named.code, {
      ...options,
      msgKey: key,
      httpStatus: options.httpStatus ?? named.httpStatus,
      errorKey: true,
    });
  }

  /**
   * Rebuilds an error from `toJSON()` output (camelCase or snake_case fields). Anything that is not
   * a known code becomes 1003 INTERNAL_ERROR with the payload as `cause`.
   */
  static fromPayload(payload: unknown): BusinessError {
    const p = isRecord(payload) ? payload : {};
    const code = p.code;
    if (!isErrorCode(code)) return new BusinessError(ErrorCode.INTERNAL_ERROR, { cause: payload });
    const msgKey = p.msgKey ?? p.msg_key;
    const status = p.httpStatus ?? p.http_status;
    const data = p.data;
    return new BusinessError(code, {
      msgKey: typeof msgKey === 'string' && msgKey !== '' ? (msgKey as MsgKey) : undefined,
      data: isRecord(data) ? data : null,
      httpStatus:
        Number.isInteger(status) && Number(status) >= 400 && Number(status) <= 599
          ? Number(status)
          : undefined,
    });
  }

  toJSON(): BusinessErrorPayload {
    return { code: this.code, msgKey: this.msgKey, data: this.data, httpStatus: this.httpStatus };
  }
}

/** True for a BusinessError, also one created by another copy of this package. */
export function isBusinessError(value: unknown): value is BusinessError {
  if (value instanceof BusinessError) return true;
  return (
    value instanceof Error &&
    value.name === 'BusinessError' &&
    typeof (value as Partial<BusinessError>).code === 'number' &&
    typeof (value as Partial<BusinessError>).msgKey === 'string' &&
    typeof (value as Partial<BusinessError>).httpStatus === 'number'
  );
}

/** A BusinessError as is; anything else as 1003 INTERNAL_ERROR (HTTP 500) with the original as `cause`. */
export function toBusinessError(error: unknown): BusinessError {
  return isBusinessError(error) ? error : new BusinessError(ErrorCode.INTERNAL_ERROR, { cause: error });
}

function withErrorKey(data: ErrorData, msgKey: string, tag: boolean): ErrorData {
  if (!tag || (data !== null && 'error_key' in data)) return data;
  return { ...data, error_key: msgKey };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
