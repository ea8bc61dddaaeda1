import { BusinessError, type Locale, type MsgKey } from '@platform/errors';
import type { NextFunction, Request, Response } from 'express';
import { apiKeyCheckFor } from '../auth/api-key-check.js';
import { Authenticator } from '../auth/authenticator.js';
import { sendOk, sendRedirect } from '../http/respond.js';
import type { ShutdownDrain } from '../http/drain.js';
import { sendEventStream, sendGoAwayStream } from '../http/sse.js';
import { StreamSpan } from '../http/stream-span.js';
import { whileAccessHolds } from '../http/stream-access.js';
import type { RouteContext, RouteDefinition, RouteInput } from './route-definition.js';
import { collectUnsafeText, fieldErrors, parsePart, validationFailure } from './validation.js';

function hasBody(req: Request): boolean {
  const length = req.header('content-length');
  return (length !== undefined && length !== '0') || req.header('transfer-encoding') !== undefined;
}

/**
 * Content-type rules: JSON routes take `application/json`; the form routes take
 * `application/x-www-form-urlencoded` and answer a JSON body with 422 / 1001 (pinned in
 * ARCHITECTURE); any other type with a body is 415 / 1002.
 */
function checkContentType(route: RouteDefinition<unknown>, req: Request): void {
  if (!route.body || !hasBody(req)) return;
  const isJson = req.is(['application/json', 'application/*+json']) !== false;
  const isForm = req.is('application/x-www-form-urlencoded') !== false;
  if (route.bodyType === 'form') {
    if (isJson) {
      throw BusinessError.validation({ body: ['must be application/x-www-form-urlencoded'] });
    }
    if (!isForm) throw BusinessError.named('unsupported_media_type');
    return;
  }
  if (!isJson) throw BusinessError.named('unsupported_media_type');
}

function parseInput(route: RouteDefinition<unknown>, req: Request): RouteInput<unknown, unknown, unknown> {
  const errors = fieldErrors();
  const rawBody: unknown = req.body === undefined ? {} : req.body;
  if (route.body && (typeof rawBody !== 'object' || rawBody === null || Array.isArray(rawBody))) {
    throw validationFailure({ body: ['must be a JSON object'] });
  }
  // Only the parts the route reads: an undeclared query parameter is ignored, not refused.
  if (route.params) collectUnsafeText(req.params, '', errors);
  if (route.query) collectUnsafeText(req.query, '', errors);
  if (route.body) collectUnsafeText(rawBody, '', errors);
  if (Object.keys(errors).length > 0) throw validationFailure(errors);
  const params = parsePart(route.params, req.params, errors);
  const query = parsePart(route.query, req.query, errors);
  const body = parsePart(route.body, rawBody, errors);
  if (Object.keys(errors).length > 0) throw validationFailure(errors);
  return { params, query, body };
}

export interface RouteHandlerOptions {
  /**
   * Event-stream routes: how often an open stream re-authenticates its caller and re-runs the
   * route's `recheck` (STREAM_ACCESS_RECHECK_MS); unset: checked only when the stream opens.
   */
  streamRecheckMs?: number;
  /** The replica's shutdown state: readiness, and event streams sent away on SIGTERM. */
  drain?: ShutdownDrain;
}

/** Builds the express handler for one route: auth → content type → validation → RPC → envelope. */
export function routeHandler<Clients>(
  route: RouteDefinition<Clients>,
  clients: Clients,
  authenticator?: Authenticator,
  options: RouteHandlerOptions = {},
) {
  if (route.auth !== 'public' && !authenticator) {
    throw new Error(
      `route ${route.method.toUpperCase()} ${route.path} needs authentication but no authenticator is configured`,
    );
  }
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const authenticated =
        route.auth === 'public'
          ? undefined
          : await authenticator!.authenticate(
              req.header('authorization'),
              route.auth,
              route.permission,
              apiKeyCheckFor(route as RouteDefinition<unknown>, req.params),
            );
      checkContentType(route as RouteDefinition<unknown>, req);
      const input = parseInput(route as RouteDefinition<unknown>, req);
      const context: RouteContext<Clients> = {
        clients,
        principal: authenticated?.principal,
        credential: authenticated?.credential ?? undefined,
        locale: res.locals.locale as Locale,
        requestId: res.locals.requestId as string,
        // Read by a few routes only: worked out when read (the client address walks the proxy chain).
        get unverifiedBearer() {
          return Authenticator.bearerCredential(req.header('authorization'));
        },
        get ip() {
          return req.ip ?? '';
        },
        get userAgent() {
          return req.header('user-agent') ?? '';
        },
        get draining() {
          return options.drain?.draining ?? false;
        },
      };
      const openEvents = route.events?.bind(route);
      if (openEvents && options.drain?.draining) {
        // Accepted (auth and validation passed), but sent away before the upstream call opens.
        sendGoAwayStream(res, options.drain.retryMs());
        return;
      }
      if (openEvents) {
        // `upstream` cancels the service call: the client went away or lost access; `clientGone`
        // only the former (then no error event is written to a closed socket).
        const upstream = new AbortController();
        const clientGone = new AbortController();
        res.on('close', () => {
          clientGone.abort(new Error('client disconnected'));
          upstream.abort(clientGone.signal.reason);
        });
        const lastEventId = req.header('last-event-id');
        const stream = new StreamSpan(lastEventId);
        try {
          const end = await stream.run(async () => {
            let events = openEvents(input, context, lastEventId, upstream.signal);
            if (authenticated && options.streamRecheckMs) {
              const recheck = async () => {
                const again = await authenticator!.authenticate(
                  req.header('authorization'),
                  route.auth as Exclude<typeof route.auth, 'public'>,
                  route.permission,
                  apiKeyCheckFor(route as RouteDefinition<unknown>, req.params),
                );
                await route.recheck?.(input, {
                  ...context,
                  principal: again.principal,
                  credential: again.credential,
                });
              };
              events = whileAccessHolds(events, recheck, options.streamRecheckMs, upstream);
            }
            return sendEventStream(res, stream.counted(events), clientGone, context.locale, options.drain);
          });
          stream.end(end === 'drained' ? 'drained' : clientGone.signal.aborted ? 'client_gone' : 'completed');
        } catch (error) {
          stream.end('failed', error);
          throw error;
        }
        return;
      }
      const response = await route.invoke(input, context);
      // Negotiated only by the few routes that may redirect (SSO), not on every answer.
      const location = route.redirect?.(response, input, {
        wantsJson: req.accepts(['text/html', 'application/json']) === 'application/json',
      });
      if (location) {
        sendRedirect(res, location);
        return;
      }
      const message: { msgKey?: MsgKey; params?: Record<string, unknown> } = route.successMessage?.(
        response,
        input,
      ) ?? { msgKey: route.successMsgKey };
      sendOk(res, route.present ? route.present(response, input) : response, message.msgKey, message.params);
    } catch (error) {
      next(error);
    }
  };
}
