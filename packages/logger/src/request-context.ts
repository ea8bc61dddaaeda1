import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What follows one request across the gateway, gRPC hops and Kafka messages. */
export interface RequestContext {
  requestId: string;
  locale?: string;
  /** Authenticated principal's user id, when known. */
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  /** The current request id, or a fresh one for work that starts outside any request. */
  requestId(): string {
    return storage.getStore()?.requestId ?? randomUUID();
  },
  newRequestId(): string {
    return randomUUID();
  },
};
