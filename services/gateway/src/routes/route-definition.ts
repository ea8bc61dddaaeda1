import type { Principal } from '@platform/grpc';
import type { ErrorCode, Locale, MsgKey } from '@platform/errors';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/**
 * - `public`: no credentials.
 * - `user`: a JWT access token of an active user.
 * - `user_or_api_key`: a JWT, or an API key (`Authorization: Bearer sk-…`) verified by apikeys.
 */
export type AuthRequirement = 'public' | 'user' | 'user_or_api_key';

/** A business code a route can answer: at its catalog HTTP status, or at the one given. */
export type RouteError = ErrorCode | { code: ErrorCode; status: number };

/** What a route's `invoke` gets besides its validated input. */
export interface RouteContext<Clients> {
  clients: Clients;
  principal: Principal | undefined;
  /** The raw bearer credential, for the few routes that act on the token itself (logout). */
  credential: string | undefined;
  /**
   * The bearer credential as sent, NOT verified, on every route (also public ones). Only for the
   * few public routes whose service verifies the credential itself (TOTP setup/enable accept an
   * access token or an enrollment temp token); never trust it at the edge.
   */
  unverifiedBearer: string | undefined;
  locale: Locale;
  requestId: string;
  /** Client IP and user agent, for login anomaly checks and audit. */
  ip: string;
  userAgent: string;
  /** True once this replica is shutting down (SIGTERM, http/drain.ts): readiness answers 503. */
  draining: boolean;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/**
 * One entry of the gateway's declarative route table: everything the edge needs to serve it and
 * everything the OpenAPI document says about it.
 */
export interface RouteDefinition<Clients = unknown, P = unknown, Q = unknown, B = unknown, R = unknown> {
  method: HttpMethod;
  /** Path below /api/v1 in express syntax, e.g. `/api-keys/:key_id`. */
  path: string;
  summary: string;
  tags: string[];
  auth: AuthRequirement;
  /** Global permission code checked at the edge (resource-level checks live in the service). */
  permission?: string;
  /**
   * `user_or_api_key` routes: the key scope an API key needs here (table in docs/apikeys.md), and
   * the path parameter naming the agent or workflow the key's bindings are checked against.
   */
  apiKeyScope?: string;
  apiKeyResource?: { kind: 'agent' | 'workflow'; param: string };
  /**
   * The permission a key's owner must hold at the request for the key to use this route (default
   * `permission`): a key acts with at most its owner's current permissions (docs/apikeys.md).
   */
  apiKeyPermission?: string;
  /** `form`: application/x-www-form-urlencoded (the two login endpoints); default `json`. */
  bodyType?: 'json' | 'form';
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * Business codes the route's service can answer, for the OpenAPI document. What the edge raises
   * (400/1002, 401, 403, 404 on a path parameter, 413, 415, 422/1001, 500, 503, 504) is derived
   * from `auth`, `permission`, `params`, `query` and `body` (openapi/error-responses.ts).
   */
  errors?: RouteError[];
  /** Schema of `data` in the success envelope, for the OpenAPI document. */
  response?: z.ZodType<unknown>;
  /** Calls one RPC (through `context.clients`) and returns its response. */
  invoke: (input: RouteInput<P, Q, B>, context: RouteContext<Clients>) => Promise<R>;
  /** Turns the RPC response into the envelope's `data`; default: the response as is. */
  present?: (response: R, input: RouteInput<P, Q, B>) => unknown;
  /** Success message key (default `success`). */
  successMsgKey?: MsgKey;
  /**
   * A success message that depends on the answer, with values for its `{placeholders}` (e.g.
   * `notifications_created` with `{count}`); wins over `successMsgKey`.
   */
  successMessage?: (
    response: R,
    input: RouteInput<P, Q, B>,
  ) => { msgKey: MsgKey; params?: Record<string, unknown> };
  /**
   * HTTP-native answer for the few routes that send a browser elsewhere (SSO): a returned URL
   * makes the handler answer 302 with that `Location` (no envelope, `Cache-Control: no-store`);
   * `undefined` keeps the envelope. `wantsJson`: the client prefers `application/json` to HTML.
   */
  redirect?: (response: R, input: RouteInput<P, Q, B>, request: { wantsJson: boolean }) => string | undefined;
  /** OpenAPI description of the 302 answer (routes with `redirect`). */
  redirectDescription?: string;
  /**
   * Server-Sent Events instead of one envelope (http/sse.ts): after authentication and validation
   * the handler reads this iterable; a failure before its first event is the usual error envelope,
   * a later one an `error` event and a clean end. `lastEventId`: the `Last-Event-ID` header;
   * `signal` aborts when the client disconnects. `invoke` is not called on such a route.
   */
  events?: (
    input: RouteInput<P, Q, B>,
    context: RouteContext<Clients>,
    lastEventId: string | undefined,
    signal: AbortSignal,
  ) => AsyncIterable<SseEvent>;
  /**
   * Event-stream routes: while the stream is open, the gateway re-authenticates the caller every
   * STREAM_ACCESS_RECHECK_MS and then calls this with the fresh principal (e.g. the service's own
   * read check); a throw ends the stream with that error as its `error` event.
   */
  recheck?: (input: RouteInput<P, Q, B>, context: RouteContext<Clients>) => Promise<unknown>;
}

/**
 * One Server-Sent Event: `id` (omitted for out-of-band events), `event` and a JSON `data` text; or
 * the `open` marker: the upstream accepted the request, so the stream may start before any event.
 */
export type SseEvent = { id?: string | number; event: string; data: string } | { open: true };

/** Keeps the generic parameters of one route inferred from its schemas. */
export function defineRoute<Clients, P = undefined, Q = undefined, B = undefined, R = unknown>(
  route: RouteDefinition<Clients, P, Q, B, R>,
): RouteDefinition<Clients> {
  return route as unknown as RouteDefinition<Clients>;
}
