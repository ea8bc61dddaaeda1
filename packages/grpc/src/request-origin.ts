import { toLocale, type Locale } from '@platform/errors';
import type { CallContext } from './service-types.js';

/**
 * Who asked, as use cases take it: the client the gateway forwarded (`platform.common.v1.RequestOrigin`)
 * plus the request id and locale from the call's metadata. For audit rows, throttles, login anomaly
 * checks and localized texts.
 */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
  requestId: string;
  /** The negotiated locale (`en` when the call carried none or an unknown one). */
  locale: Locale;
}

/** The forwarded client of a request message (empty fields when absent). */
export interface ForwardedOrigin {
  ip: string;
  user_agent: string;
}

export function readOrigin(forwarded: ForwardedOrigin | undefined, context: CallContext): RequestOrigin {
  return {
    ip: forwarded?.ip ?? '',
    userAgent: forwarded?.user_agent ?? '',
    requestId: context.requestId,
    locale: toLocale(context.locale) ?? 'en',
  };
}
