import { BusinessError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Authenticator } from './auth/authenticator.js';
import { API_PREFIX } from './http/api-prefix.js';
import type { ShutdownDrain } from './http/drain.js';
import { errorHandler, FORM_PARAMETER_LIMIT } from './http/error-handler.js';
import { requestContextMiddleware } from './http/request-context.js';
import { requestTelemetry } from './http/request-telemetry.js';
import { RouteDispatch } from './http/route-dispatch.js';
import { buildOpenApi } from './openapi/build-openapi.js';
import type { RouteDefinition } from './routes/route-definition.js';
import { routeHandler } from './routes/route-handler.js';

export { API_PREFIX };

/** JSON and form bodies above this are refused with 413 (documented in docs/gateway.md). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface GatewayAppOptions<Clients> {
  logger: Logger;
  routes: RouteDefinition<Clients>[];
  clients: Clients;
  authenticator?: Authenticator;
  bodyLimitBytes?: number;
  version?: string;
  /** Express `trust proxy` setting, for the client IP behind a load balancer. */
  trustProxy?: boolean | number | string;
  /** How often an open event stream re-checks its caller's access (routes/route-handler.ts). */
  streamRecheckMs?: number;
  /** The replica's shutdown state (SIGTERM): readiness, `Connection: close`, streams sent away. */
  drain?: ShutdownDrain;
  /** Handlers outside `/api/v1`: the account pages (src/pages), mounted before the 404. */
  pages?: express.Router;
}

function pathMatcher(expressPath: string): RegExp {
  const pattern = expressPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\?:[A-Za-z0-9_]+/g, '[^/]+');
  return new RegExp(`^${API_PREFIX}${pattern}/?$`);
}

/** Unknown paths are 404 / 4000; a known path with another method is 405 / 1002 with `Allow`. */
function notFound(routes: RouteDefinition<unknown>[]) {
  const matchers = routes.map((route) => ({
    method: route.method.toUpperCase(),
    matcher: pathMatcher(route.path),
  }));
  return (req: Request, res: Response, next: NextFunction): void => {
    const allowed = matchers.filter((m) => m.matcher.test(req.path)).map((m) => m.method);
    if (allowed.length > 0) {
      res.setHeader('Allow', [...new Set(allowed)].join(', '));
      next(BusinessError.named('method_not_allowed'));
      return;
    }
    next(BusinessError.named('route_not_found'));
  };
}

/** The gateway as an express app: the edge behaviour plus every route of the table. */
export function createGatewayApp<Clients>(options: GatewayAppOptions<Clients>): Express {
  const { logger, routes } = options;
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  app.set('query parser', 'simple');

  app.use(requestContextMiddleware);
  if (options.drain) app.use(options.drain.middleware);
  app.use(requestTelemetry(logger));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  const bodyParsers = [
    express.json({ limit, type: ['application/json', 'application/*+json'], strict: false }),
    express.urlencoded({ limit, extended: false, parameterLimit: FORM_PARAMETER_LIMIT }),
  ];
  const handlers = routes.map((route) => ({
    method: route.method,
    path: route.path,
    handler: routeHandler(route, options.clients, options.authenticator, {
      streamRecheckMs: options.streamRecheckMs,
      drain: options.drain,
    }),
  }));
  // The table's routes by one lookup (http/route-dispatch.ts); what it leaves goes down the chain.
  app.use(new RouteDispatch(API_PREFIX, handlers).middleware(bodyParsers));
  app.use(...bodyParsers);

  const router = express.Router({ caseSensitive: true, strict: false });
  for (const { method, path, handler } of handlers) router[method](path, handler);
  const openApi = buildOpenApi(routes as RouteDefinition<unknown>[], options.version ?? '0.0.0');
  router.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  router.use(
    '/docs',
    swaggerUi.serve,
    swaggerUi.setup(undefined, { swaggerOptions: { url: `${API_PREFIX}/openapi.json` } }),
  );

  app.use(API_PREFIX, router);
  if (options.pages) app.use(options.pages);
  app.use(notFound(routes as RouteDefinition<unknown>[]));
  app.use(errorHandler(logger));
  return app;
}
