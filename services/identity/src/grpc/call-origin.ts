import type { CallContext } from '@platform/grpc';
import type { RequestMeta } from '../domain/auth/auth-context.js';

/** Where a call came from as the gateway forwards it (`ClientInfo`, `VerificationOrigin`). */
export interface ForwardedClient {
  ip: string;
  user_agent: string;
}

/** The audit origin of a call: the forwarded client (empty when absent) and the request id. */
export function callOrigin(client: ForwardedClient | undefined, context: CallContext) {
  return { ip: client?.ip ?? '', userAgent: client?.user_agent ?? '', requestId: context.requestId };
}

/** `callOrigin` plus the caller's locale, as the auth use cases take it. */
export function callMeta(client: ForwardedClient | undefined, context: CallContext): RequestMeta {
  return { ...callOrigin(client, context), locale: context.locale };
}
