import type { Deadline, Metadata, StatusObject } from '@grpc/grpc-js';
import { isBusinessError } from '@platform/errors';
import { requestContext, type Logger } from '@platform/logger';
import { performance } from 'node:perf_hooks';
import { readLocale, readRequestId } from './metadata.js';
import type { CallContext, UnaryHandler } from './service-types.js';
import { businessErrorToStatus, internalErrorStatus } from './status-details.js';
import { rejectionToBusinessError, type ServerTrust } from './trust/server-trust.js';
import { TrustRejection } from './trust/trust-rejection.js';

export interface MethodSetup {
  method: string;
  handler: UnaryHandler<never>;
  logger: Logger;
  trust: ServerTrust;
  allowedCallers: readonly string[] | undefined;
}

/**
 * The credentials check and call context every method shares: undefined (after answering the
 * refusal through `refuse`) when the caller's credentials do not hold.
 */
export async function openCall(
  setup: Omit<MethodSetup, 'handler'>,
  metadata: Metadata,
  deadline: Deadline,
  refuse: (status: Partial<StatusObject>) => void,
): Promise<CallContext | undefined> {
  const { method, logger, trust, allowedCallers } = setup;
  const requestId = readRequestId(metadata) ?? requestContext.newRequestId();
  const locale = readLocale(metadata);
  let authenticated;
  try {
    authenticated = await trust.authenticate(metadata, allowedCallers);
  } catch (error) {
    if (!(error instanceof TrustRejection)) throw error;
    logger.warn({ rpc: method, request_id: requestId, reason: error.reason }, 'rpc credentials refused');
    refuse(businessErrorToStatus(rejectionToBusinessError(error)));
    return undefined;
  }
  return {
    requestId,
    locale,
    principal: authenticated.principal,
    caller: authenticated.caller,
    deadline:
      deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
    metadata,
    logger,
  };
}

/** Logs a handler's failure and turns it into the status the caller gets. */
export function failureStatus(logger: Logger, method: string, error: unknown, started: number) {
  const durationMs = +(performance.now() - started).toFixed(2);
  if (isBusinessError(error)) {
    logger.info(
      { rpc: method, code: error.code, msg_key: error.msgKey, duration_ms: durationMs },
      'rpc business error',
    );
    return businessErrorToStatus(error);
  }
  logger.error({ rpc: method, err: error, duration_ms: durationMs }, 'rpc failed');
  return internalErrorStatus();
}
