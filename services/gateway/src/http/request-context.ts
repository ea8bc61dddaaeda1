import { negotiateLocale } from '@platform/errors';
import { requestContext } from '@platform/logger';
import type { NextFunction, Request, Response } from 'express';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane, else a new UUID),
 * echoes it in the response and opens the async context that logging, gRPC metadata and Kafka
 * headers read it from.
 */
export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : requestContext.newRequestId();
  const locale = negotiateLocale(req.header('accept-language'));
  res.locals.requestId = requestId;
  res.locals.locale = locale;
  res.setHeader('X-Request-Id', requestId);
  requestContext.run({ requestId, locale }, () => next());
}
