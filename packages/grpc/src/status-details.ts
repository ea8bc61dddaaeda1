import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { Any, rpcErrorDetails, rpcStatus } from '@platform/contracts';
import { BusinessError, ErrorCode, isErrorCode, type MsgKey } from '@platform/errors';

/** The rich-status trailer every gRPC implementation understands (google.rpc.Status). */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
export const ERROR_DOMAIN = 'agent-platform';
const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

function grpcCodeForHttpStatus(httpStatus: number): GrpcStatus {
  if (httpStatus === 401) return GrpcStatus.UNAUTHENTICATED;
  if (httpStatus === 403) return GrpcStatus.PERMISSION_DENIED;
  if (httpStatus === 404) return GrpcStatus.NOT_FOUND;
  if (httpStatus === 409) return GrpcStatus.ALREADY_EXISTS;
  if (httpStatus === 422) return GrpcStatus.INVALID_ARGUMENT;
  if (httpStatus === 429) return GrpcStatus.RESOURCE_EXHAUSTED;
  if (httpStatus >= 500) return GrpcStatus.INTERNAL;
  return GrpcStatus.FAILED_PRECONDITION;
}

/**
 * Turns a business error into a gRPC status whose trailer holds google.rpc.Status with an
 * ErrorInfo: `reason` = the error constant, metadata = platform code, message key, HTTP status and
 * JSON data. Any gRPC client can read it; our own client turns it back into a BusinessError.
 */
export function businessErrorToStatus(error: BusinessError): Partial<StatusObject> {
  const code = grpcCodeForHttpStatus(error.httpStatus);
  const info = rpcErrorDetails.ErrorInfo.fromPartial({
    reason: error.constant,
    domain: ERROR_DOMAIN,
    metadata: {
      code: String(error.code),
      msg_key: error.msgKey,
      http_status: String(error.httpStatus),
      data: JSON.stringify(error.data ?? null),
    },
  });
  const details = rpcStatus.Status.encode({
    code,
    message: error.msgKey,
    details: [
      Any.fromPartial({
        type_url: ERROR_INFO_TYPE_URL,
        value: Buffer.from(rpcErrorDetails.ErrorInfo.encode(info).finish()),
      }),
    ],
  }).finish();
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, Buffer.from(details));
  return { code, details: error.msgKey, metadata };
}

/** A status for anything that is not a business error; the real cause stays in the server log. */
export function internalErrorStatus(): Partial<StatusObject> {
  return { code: GrpcStatus.INTERNAL, details: 'internal_error' };
}

function parseErrorInfo(error: ServiceError): rpcErrorDetails.ErrorInfo | undefined {
  const raw = error.metadata?.get(STATUS_DETAILS_KEY)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    const decoded = rpcStatus.Status.decode(raw);
    const any = decoded.details.find((d) => d.type_url === ERROR_INFO_TYPE_URL);
    if (!any) return undefined;
    const info = rpcErrorDetails.ErrorInfo.decode(any.value);
    return info.domain === ERROR_DOMAIN ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns a failed call back into a BusinessError. Business errors come back exactly as raised
 * (code, message key, data, HTTP status); an unreachable service becomes 503 / 1003, a missed
 * deadline 504 / 1003, anything else 500 / 1003.
 */
export function statusToBusinessError(error: ServiceError): BusinessError {
  const info = parseErrorInfo(error);
  if (info) {
    const code = Number(info.metadata.code);
    if (!isErrorCode(code)) return new BusinessError(ErrorCode.INTERNAL_ERROR);
    const httpStatus = Number(info.metadata.http_status);
    let data: unknown = null;
    try {
      data = JSON.parse(info.metadata.data ?? 'null');
    } catch {
      data = null;
    }
    return new BusinessError(code, {
      msgKey: info.metadata.msg_key as MsgKey | undefined,
      data: data as Record<string, unknown> | null,
      httpStatus: Number.isFinite(httpStatus) ? httpStatus : undefined,
    });
  }
  if (error.code === GrpcStatus.UNAVAILABLE) {
    return BusinessError.named('service_unavailable');
  }
  if (error.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return BusinessError.named('service_timeout');
  }
  return new BusinessError(ErrorCode.INTERNAL_ERROR);
}
