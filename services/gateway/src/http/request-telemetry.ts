import type { Logger } from '@platform/logger';
import {
  histogram,
  recordFailure,
  ROOT_CONTEXT,
  runInSpan,
  SpanKind,
  startSpan,
  telemetryEnabled,
  type Span,
} from '@platform/telemetry';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { API_PREFIX } from './api-prefix.js';

/**
 * RED of the edge: one observation per request, by route TEMPLATE (`/api/v1/workflows/:id`, never
 * the raw path), method, HTTP status and the envelope code's class (`1xxx` … `9xxx`, `ok` for a
 * success, `none` when no envelope was sent). Requests that match no route are `route="unmatched"`,
 * so a scan of random paths cannot add series.
 */
const requestDuration = histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Gateway requests: time to the last byte of the answer (SSE streams: the stream’s life)',
  labelNames: ['route', 'method', 'status', 'code_class'] as const,
});

const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

function codeClass(code: number | undefined): string {
  if (code === undefined) return 'none';
  if (code === 0) return 'ok';
  return `${Math.floor(code / 1000)}xxx`;
}

function routeTemplate(req: Request): string {
  const path = req.route?.path as string | undefined;
  if (typeof path !== 'string') return 'unmatched';
  // Table routes are registered below the API prefix (by the dispatch or express's router, which
  // leaves it in `baseUrl`); the pages router's templates are absolute.
  return req.originalUrl.startsWith(`${API_PREFIX}/`) && !path.startsWith(API_PREFIX)
    ? `${API_PREFIX}${path}`
    : path;
}

/**
 * Per request: the server span every call it makes hangs under (a new trace: a client's
 * `traceparent` is not trusted to steer our sampling), the RED histogram, and one access-log line
 * with route template, status, envelope code and duration.
 */
export function requestTelemetry(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    // TELEMETRY_ENABLED=false: the access log only (no span, no histogram).
    const span = telemetryEnabled()
      ? startSpan(`${req.method} gateway`, {
          kind: SpanKind.SERVER,
          parent: ROOT_CONTEXT,
          attributes: { 'http.request.method': req.method, request_id: res.locals.requestId as string },
        })
      : undefined;
    res.on('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      const code = res.locals.code as number | undefined;
      if (span) recordRequest(req, res, span, seconds, code);
      const line = {
        request_id: res.locals.requestId as string,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        route: req.route?.path as string | undefined,
        status: res.statusCode,
        code,
        duration_ms: +(seconds * 1000).toFixed(2),
      };
      if (res.statusCode >= 500) logger.warn(line, 'request failed');
      else logger.info(line, 'request');
    });
    if (span) runInSpan(span, () => next(), ROOT_CONTEXT);
    else next();
  };
}

/** The histogram observation and the span's closing attributes of one finished request. */
function recordRequest(
  req: Request,
  res: Response,
  span: Span,
  seconds: number,
  code: number | undefined,
): void {
  const route = routeTemplate(req);
  const method = KNOWN_METHODS.has(req.method) ? req.method : 'OTHER';
  requestDuration.observe(
    { route, method, status: String(res.statusCode), code_class: codeClass(code) },
    seconds,
  );
  if (span.isRecording()) {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', res.statusCode);
    if (code !== undefined) span.setAttribute('platform.error_code', code);
    if (res.statusCode >= 500) recordFailure(span, new Error(`status ${res.statusCode}`));
  }
  span.end();
}
