import { requestContext } from '@platform/logger';
import { extractTraceContext, injectTraceContext, ROOT_CONTEXT, runInContext } from '@platform/telemetry';

/**
 * What caused a delivery — the request or event it was scheduled under — kept on the delivery so
 * its later attempts (retries, rate-limit waits, a dead worker's lease handed on: all submitted by
 * the reconciler) join that trace and log under that request id, like the first attempt.
 */
export interface DeliveryOrigin {
  /** W3C `traceparent` of the scheduling span; null when nothing was being traced. */
  trace_parent: string | null;
  request_id: string | null;
}

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
