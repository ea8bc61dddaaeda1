import { requestContext } from '@platform/logger';
import { extractTraceContext, injectTraceContext, ROOT_CONTEXT, runInContext } from '@platform/telemetry';
import type { DeliveryOrigin } from './delivery-ports.js';

/** The origin of work scheduled now (the active span and request). */
export function currentOrigin(): DeliveryOrigin {
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  return {
    trace_parent: carrier.traceparent ?? null,
    request_id: requestContext.current()?.requestId ?? null,
  };
}

/** Runs `fn` (e.g. a resubmission) as work of `origin`. */
export function runAsOrigin<R>(origin: Partial<DeliveryOrigin>, fn: () => R): R {
  const parent = origin.trace_parent
    ? extractTraceContext({ traceparent: origin.trace_parent })
    : ROOT_CONTEXT;
  const requestId = origin.request_id ?? requestContext.newRequestId();
  return requestContext.run({ requestId }, () => runInContext(parent, fn));
}
