import { ErrorCode, type DefaultMsgKey, type ErrorConstant } from '../codes.js';
import type { Translations } from '../types.js';

/** A non-default HTTP status the spec gives a code in one situation (pass it as `httpStatus`). */
export interface AlternateStatus {
  readonly httpStatus: number;
  readonly when: string;
}

export interface CatalogEntry {
  readonly code: ErrorCode;
  readonly constant: ErrorConstant;
  /** Default HTTP status per the spec's tables; a `BusinessError` may override it. */
  readonly httpStatus: number;
  /** Defined by the spec but never raised. */
  readonly reserved: boolean;
  /** Default msg key: the constant in snake_case. */
  readonly msgKey: DefaultMsgKey;
  /** Default message (`en`, `zh`), may contain `{placeholders}` filled from `data`. */
  readonly messages: Translations;
  readonly alternateStatuses: readonly AlternateStatus[];
}

export interface EntryInput {
  readonly constant: ErrorConstant;
  readonly en: string;
  readonly zh: string;
  /** Defaults to the range's status. */
  readonly httpStatus?: number;
  readonly reserved?: boolean;
  readonly alternateStatuses?: readonly AlternateStatus[];
}

/** Builds the entries of one range; `httpStatus` is the range default (each input may override it). */
export function defineRange(httpStatus: number, inputs: readonly EntryInput[]): readonly CatalogEntry[] {
  return inputs.map((input) =>
    Object.freeze({
      code: ErrorCode[input.constant],
      constant: input.constant,
      httpStatus: input.httpStatus ?? httpStatus,
      reserved: input.reserved ?? false,
      msgKey: input.constant.toLowerCase() as DefaultMsgKey,
      messages: Object.freeze({ en: input.en, zh: input.zh }),
      alternateStatuses: Object.freeze([...(input.alternateStatuses ?? [])]),
    }),
  );
}
