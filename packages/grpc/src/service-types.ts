import type { Metadata } from '@grpc/grpc-js';
import type { Logger } from '@platform/logger';
import type { Principal } from './principal.js';

/** Shape of one unary method in a ts-proto (`outputServices=grpc-js`) service definition. */
export interface UnaryMethodDefinition<Req, Res> {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize: (value: Req) => Buffer;
  requestDeserialize: (value: Buffer) => Req;
  responseSerialize: (value: Res) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ServiceDefinition = Record<string, UnaryMethodDefinition<any, any>>;

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

export type ServiceHandlers<D extends ServiceDefinition> = { [K in keyof D]: UnaryHandler<D[K]> };
