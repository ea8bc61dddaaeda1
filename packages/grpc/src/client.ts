import {
  credentials,
  status as GrpcStatus,
  makeGenericClientConstructor,
  type Client,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { requestContext } from '@platform/logger';
import { trackClientCall } from './call-telemetry.js';
import { toMetadata } from './metadata.js';
import type { Principal } from './principal.js';
import type { RequestOf, ResponseOf, ServiceDefinition } from './service-types.js';
import { statusToBusinessError } from './status-details.js';
import type { CallCredentials } from './trust/outgoing-trust.js';

export interface CallOptions {
  /** Per-call deadline; defaults to the client's `defaultTimeoutMs`. */
  timeoutMs?: number;
  principal?: Principal;
  locale?: string;
}

export interface ServiceClient<D extends ServiceDefinition> {
  call<K extends keyof D & string>(
    method: K,
    request: RequestOf<D[K]>,
    options?: CallOptions,
  ): Promise<ResponseOf<D[K]>>;
  /**
   * A server-streaming method as an async iterable of its messages. Failures come out as
   * BusinessError like `call`'s; `signal` cancels the call (the iteration then just ends). No
   * deadline unless `timeoutMs` is given: a stream may follow a run for as long as it lasts.
   * `onBegin`: the server accepted the call (its response headers arrived), maybe before any message.
   */
  stream<K extends keyof D & string>(
    method: K,
    request: RequestOf<D[K]>,
    options?: CallOptions & { signal?: AbortSignal; onBegin?: () => void },
  ): AsyncIterable<ResponseOf<D[K]>>;
  /** Resolves when the channel is connected, rejects after `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<void>;
  close(): void;
}

export interface ClientOptions {
  defaultTimeoutMs?: number;
  /**
   * This caller's credentials for the called service (`createOutgoingTrust(...).to(name)`): a
   * service token and, from the gateway, the principal's signature. Without them the callee
   * refuses principals and internal-only methods.
   */
  credentials?: CallCredentials;
}

// Round-robin over every address DNS returns (a headless Kubernetes Service lists each pod), so
// one gateway spreads calls across all replicas instead of pinning one connection.
const CHANNEL_OPTIONS = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.max_receive_message_length': 8 * 1024 * 1024,
};

/**
 * A promise-based client for one service. Every call carries the current request id, locale and
 * principal as metadata and a deadline; failures come back as BusinessError (see status-details).
 */
export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  serviceName: string,
  address: string,
  options: ClientOptions = {},
): ServiceClient<D> {
  const Constructor = makeGenericClientConstructor(definition, serviceName);
  const client = new Constructor(address, credentials.createInsecure(), CHANNEL_OPTIONS) as Client &
    Record<string, (...args: unknown[]) => unknown>;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;

  return {
    async call(method, request, callOptions = {}) {
      const context = requestContext.current();
      const metadata = toMetadata({
        requestId: context?.requestId ?? requestContext.newRequestId(),
        locale: callOptions.locale ?? context?.locale,
        principal: callOptions.principal,
      });
      const deadline = new Date(Date.now() + (callOptions.timeoutMs ?? defaultTimeoutMs));
      const signing = options.credentials?.apply(metadata);
      if (signing) await signing;
      return new Promise((resolve, reject) => {
        const fn = client[method];
        if (typeof fn !== 'function') {
          reject(new Error(`${serviceName} has no method ${method}`));
          return;
        }
        const tracked = trackClientCall(serviceName, method, metadata);
        fn.call(client, request, metadata, { deadline }, (error: ServiceError | null, response: unknown) => {
          tracked.finish(error?.code, error ?? undefined);
          if (error) reject(statusToBusinessError(error));
          else resolve(response as ResponseOf<D[typeof method]>);
        });
      });
    },
    async *stream(method, request, callOptions = {}) {
      const context = requestContext.current();
      const metadata = toMetadata({
        requestId: context?.requestId ?? requestContext.newRequestId(),
        locale: callOptions.locale ?? context?.locale,
        principal: callOptions.principal,
      });
      const signing = options.credentials?.apply(metadata);
      if (signing) await signing;
      const fn = client[method];
      if (typeof fn !== 'function') throw new Error(`${serviceName} has no method ${method}`);
      const callOpts = callOptions.timeoutMs
        ? { deadline: new Date(Date.now() + callOptions.timeoutMs) }
        : {};
      const tracked = trackClientCall(serviceName, method, metadata);
      const call = fn.call(client, request, metadata, callOpts) as ClientReadableStream<
        ResponseOf<D[typeof method]>
      >;
      const { signal } = callOptions;
      if (callOptions.onBegin) call.once('metadata', callOptions.onBegin);
      const cancel = () => call.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        for await (const message of call) yield message as ResponseOf<D[typeof method]>;
        tracked.finish(GrpcStatus.OK);
      } catch (error) {
        if (signal?.aborted) return;
        tracked.finish((error as ServiceError).code, error);
        throw statusToBusinessError(error as ServiceError);
      } finally {
        tracked.finish(GrpcStatus.CANCELLED);
        signal?.removeEventListener('abort', cancel);
        call.cancel();
      }
    },
    waitForReady(timeoutMs) {
      return new Promise((resolve, reject) => {
        client.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve()));
      });
    },
    close() {
      client.close();
    },
  };
}
