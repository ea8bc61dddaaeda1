export { ErrorCode, type DefaultMsgKey, type ErrorConstant } from './codes.js';
export { DEFAULT_LOCALE, LOCALES, type ErrorData, type Locale, type Translations } from './types.js';
export { CATALOG, getCatalogEntry, isErrorCode, type AlternateStatus, type CatalogEntry } from './catalog.js';
export {
  ERROR_KEY_MESSAGES,
  GENERAL_MESSAGES,
  MESSAGES,
  SPEC_ERROR_KEYS,
  isMsgKey,
  type ErrorKey,
  type GeneralKey,
  type MsgKey,
} from './messages.js';
export { NAMED_ERRORS, type NamedError, type NamedErrorKey } from './named-errors.js';
export { interpolate, isLocale, negotiateLocale, toLocale, translate } from './locale.js';
export {
  BusinessError,
  isBusinessError,
  toBusinessError,
  type BusinessErrorOptions,
  type BusinessErrorPayload,
} from './business-error.js';
export {
  fail,
  ok,
  paged,
  type Envelope,
  type ErrorEnvelope,
  type OkOptions,
  type Paged,
  type SuccessEnvelope,
} from './envelope.js';
export { UUID_PATTERN, isUuid } from './ids.js';
export { PAGING, pagingErrors, readPaging, type PageWindow } from './paging.js';
