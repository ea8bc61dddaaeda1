import type { Metadata } from '@grpc/grpc-js';
import type { Logger } from '@platform/logger';
import type { Principal } from './principal.js';

/** Shape of one method in a ts-proto (`outputServices=grpc-js`) service definition. */
export interface MethodDefinition<Req, Res> {
  path: string;
  requestStream: false;
  /** True for a server-streaming method (the only streaming kind the platform uses). */
  responseStream: boolean;
  requestSerialize: (value: Req) => Buffer;
  requestDeserialize: (value: Buffer) => Req;
  responseSerialize: (value: Res) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ServiceDefinition = Record<string, MethodDefinition<any, any>>;

export type RequestOf<M> = M extends { requestDeserialize: (value: Buffer) => infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize: (value: Buffer) => infer Res } ? Res : never;

/** What a handler knows about the call besides its request message. */
export interface CallContext {
  requestId: string;
  locale: string;
  /** Set only when the gateway's signature over it was valid for this service. */
  principal: Principal | undefined;
  /** The calling service (from its service token); set for internal-only methods. */
  caller: string | undefined;
  /** Absolute deadline set by the caller, if any. */
  deadline: Date | undefined;
  metadata: Metadata;
  logger: Logger;
}

export type UnaryHandler<M> = (request: RequestOf<M>, context: CallContext) => Promise<ResponseOf<M>>;

/**
 * A server-streaming method: `send` writes one message (resolving when the transport took it, so a
 * slow client slows the handler down instead of filling memory); the handler's promise ends the
 * stream; `context.signal` aborts when the client cancels or goes away.
 */
export type StreamHandler<M> = (
  request: RequestOf<M>,
  context: CallContext & {
    signal: AbortSignal;
    /**
     * Sends the response headers before the first message: tells the caller the call was accepted
     * (access checked) while there is nothing to send yet. Implied by the first `send`.
     */
    begin(): void;
  },
  send: (message: ResponseOf<M>) => Promise<void>,
) => Promise<void>;

export type ServiceHandlers<D extends ServiceDefinition> = {
  [K in keyof D]: D[K] extends { responseStream: true } ? StreamHandler<D[K]> : UnaryHandler<D[K]>;
};
