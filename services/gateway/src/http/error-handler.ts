import { BusinessError, ErrorCode, isBusinessError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from './respond.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** Form bodies with more fields than this are refused with 413 / 1002 (docs/gateway.md). */
export const FORM_PARAMETER_LIMIT = 100;

/** Errors raised by express's body parsers, answered with the envelope instead of HTML. */
function bodyParserError(error: BodyParserError): BusinessError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return BusinessError.named('malformed_json');
    case 'entity.too.large':
      return BusinessError.named('payload_too_large', { data: { limit_bytes: error.limit ?? null } });
    case 'parameters.too.many':
      return BusinessError.named('payload_too_large', { data: { limit_fields: FORM_PARAMETER_LIMIT } });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return BusinessError.named('unsupported_media_type');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'querystring.parse.rangeError':
      return new BusinessError(ErrorCode.BAD_REQUEST);
    default:
      return undefined;
  }
}

/**
 * Any other client error express raises before a route runs, answered 400 / 1002 as a class: the
 * router's "Failed to decode param" (a path parameter that is not valid percent-encoding, or is
 * the UTF-8 encoding of a lone surrogate, which `decodeURIComponent` refuses too) and whatever
 * 4xx a parser adds later. 5xx and status-less errors stay unexpected.
 */
function clientError(error: BodyParserError): BusinessError | undefined {
  if (error instanceof URIError) return new BusinessError(ErrorCode.BAD_REQUEST);
  const status = error.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413) return BusinessError.named('payload_too_large');
  if (status === 415) return BusinessError.named('unsupported_media_type');
  return new BusinessError(ErrorCode.BAD_REQUEST);
}

/**
 * The last middleware: every failure leaves as an envelope. Business errors keep their code and
 * status; a service that is down or slow becomes 503/504 with code 1003; anything unexpected is
 * logged with its stack and answered 500 / 1003 with no detail in the body.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) {
      logger.error({ err: error, path: req.path }, 'error after response started');
      res.end();
      return;
    }
    const parserError =
      error instanceof Error && !isBusinessError(error)
        ? (bodyParserError(error as BodyParserError) ?? clientError(error as BodyParserError))
        : undefined;
    if (parserError) {
      sendError(res, parserError);
      return;
    }
    if (isBusinessError(error)) {
      if (error.httpStatus === 503 || error.httpStatus === 504) {
        logger.warn(
          { route: req.route?.path, msg_key: error.msgKey, status: error.httpStatus },
          'upstream service failed',
        );
      }
      sendError(res, error);
      return;
    }
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    sendError(res, new BusinessError(ErrorCode.INTERNAL_ERROR));
  };
}
