import { ErrorCode } from '@platform/errors';
import { OutboundHttpError, isPolicyRefusal } from '@platform/outbound-http';
import type { NodeOutcome } from '../engine/contract.js';

/**
 * A node's own failure (1002, `data.reason` names what went wrong; docs/workflows.md "Failure
 * rules"): the engine adds `node_id`.
 */
export function failed(
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
  outputs: Record<string, unknown> = {},
): NodeOutcome {
  return {
    status: 'failed',
    outputs,
    error: { code: ErrorCode.BAD_REQUEST, message, data: { reason, ...extra } },
  };
}

/** The guard's errors as node outcomes: a cut at the time limit is `timeout`, the rest `failed`. */
export function outboundFailure(error: OutboundHttpError, timeoutMs: number, prefix: string): NodeOutcome {
  if (error.reason === 'timeout') {
    return {
      status: 'timeout',
      outputs: {},
      error: {
        code: ErrorCode.BAD_REQUEST,
        message: `the node passed its time limit of ${timeoutMs} ms (${error.message})`,
        data: { reason: 'node_timeout' },
      },
    };
  }
  if (isPolicyRefusal(error)) {
    return failed(`${prefix}_destination_refused`, error.message, { guard_reason: error.reason });
  }
  if (error.reason === 'connection_failed' || error.reason === 'aborted') {
    return failed(`${prefix}_connection_failed`, error.message, { guard_reason: error.reason });
  }
  if (error.reason === 'invalid_request') {
    // Node refused the request itself: a header value with a line break, say (from a template).
    return failed(`${prefix}_invalid_request`, error.message, { guard_reason: error.reason });
  }
  return failed(`${prefix}_limit`, error.message, { guard_reason: error.reason });
}

export const isOutboundError = (error: unknown): error is OutboundHttpError =>
  error instanceof OutboundHttpError;
