import type { Logger } from '@platform/logger';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';

/** One log line per request: route pattern, status, envelope code and duration. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.on('finish', () => {
      const line = {
        request_id: res.locals.requestId as string,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        route: req.route?.path as string | undefined,
        status: res.statusCode,
        code: res.locals.code as number | undefined,
        duration_ms: +(performance.now() - started).toFixed(2),
      };
      if (res.statusCode >= 500) logger.warn(line, 'request failed');
      else logger.info(line, 'request');
    });
    next();
  };
}
