import { BusinessError, ErrorCode, isBusinessError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from './respond.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** Errors raised by express's body parsers, answered with the envelope instead of HTML. */
function bodyParserError(error: BodyParserError): BusinessError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return BusinessError.named('malformed_json');
    case 'entity.too.large':
      return BusinessError.named('payload_too_large', { data: { limit_bytes: error.limit ?? null } });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return BusinessError.named('unsupported_media_type');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new BusinessError(ErrorCode.BAD_REQUEST);
    default:
      return undefined;
  }
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
    const parserError = error instanceof Error ? bodyParserError(error as BodyParserError) : undefined;
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
