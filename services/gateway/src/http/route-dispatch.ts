import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** A path template cut at `/`: a literal segment, or a `:name` parameter. */
type Segment = { literal: string } | { param: string };

interface CompiledRoute {
  /** The template as registered (below the prefix): `req.route.path`, as express sets it. */
  path: string;
  segments: Segment[];
  handler: RequestHandler;
}

export interface DispatchRoute {
  method: string;
  path: string;
  handler: RequestHandler;
}

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const LITERAL = /^[A-Za-z0-9_.~-]+$/;
/**
 * The request targets this dispatch takes: an absolute path without `//` at its start, `#`, or
 * white space (parseurl's fast path). Anything else goes to express, which decides as before.
 */
const SIMPLE_TARGET = /^\/(?!\/)[^?#\s]*(?:\?[^#\s]*)?$/;

function compile(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  for (const part of path.split('/').slice(1)) {
    const param = PARAM.exec(part)?.[1];
    if (param) segments.push({ param });
    else if (LITERAL.test(part)) segments.push({ literal: part });
    else return undefined;
  }
  return segments;
}

/** Express's router decodes a parameter only when it holds a `%`; a bad one is a URIError with 400. */
function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) {
      error.message = `Failed to decode param '${value}'`;
      Object.assign(error, { status: 400, statusCode: 400 });
    }
    throw error;
  }
}

/** The first route of `candidates` (table order) whose template fits `parts`, with its raw params. */
function firstMatch(
  candidates: readonly CompiledRoute[],
  parts: readonly string[],
): { route: CompiledRoute; raw: string[] } | undefined {
  for (const route of candidates) {
    const raw: string[] = [];
    let fits = true;
    for (let i = 0; i < parts.length && fits; i++) {
      const segment = route.segments[i]!;
      if ('literal' in segment) fits = segment.literal === parts[i];
      else if (parts[i] === '') fits = false;
      else raw.push(parts[i]!);
    }
    if (fits) return { route, raw };
  }
  return undefined;
}

/**
 * One Map lookup by method and segment count instead of express walking the ~150 route layers in
 * order on every request (the top router frames in docs/profiles/gateway). It answers only what
 * express's router would answer the same way: the same table order, case-sensitive literals, one
 * optional trailing slash (`strict: false`), `[^/]+` parameters decoded like express's router
 * (`req.params` without a prototype, `req.route.path` set for the access log). Everything else —
 * HEAD, OPTIONS, unusual request targets, a prefix in other case, unknown paths — falls through to
 * the express chain unchanged, so 404/405 and every other edge answer stay express's.
 */
export class RouteDispatch {
  /** `GET 3` → the GET routes of three segments, in table order. */
  private readonly buckets = new Map<string, CompiledRoute[]>();
  /** Methods with a template this dispatch cannot read: their requests all go to express. */
  private readonly expressOnly = new Set<string>();

  constructor(
    private readonly prefix: string,
    routes: readonly DispatchRoute[],
  ) {
    for (const { method, path, handler } of routes) {
      const upper = method.toUpperCase();
      const segments = compile(path);
      if (!segments) {
        this.expressOnly.add(upper);
        continue;
      }
      const key = `${upper} ${segments.length}`;
      const bucket = this.buckets.get(key) ?? [];
      bucket.push({ path, segments, handler });
      this.buckets.set(key, bucket);
    }
  }

  /** The route for this request and its raw (still encoded) params, or undefined to let express decide. */
  private lookup(req: Request): { route: CompiledRoute; raw: string[] } | undefined {
    const url = req.url;
    if (this.expressOnly.has(req.method) || !url.startsWith(this.prefix) || url[this.prefix.length] !== '/')
      return undefined;
    if (!SIMPLE_TARGET.test(url)) return undefined;
    const query = url.indexOf('?');
    let path = url.slice(this.prefix.length, query === -1 ? undefined : query);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const parts = path.split('/').slice(1);
    const candidates = this.buckets.get(`${req.method} ${parts.length}`);
    return candidates && firstMatch(candidates, parts);
  }

  /**
   * The middleware: a matched request runs `bodyParsers` (only when it has a body: without one
   * they do nothing) and then its route's handler; anything else continues down the express chain.
   */
  middleware(bodyParsers: readonly RequestHandler[]): RequestHandler {
    return (req: Request, res: Response, next: NextFunction): void => {
      const found = this.lookup(req);
      if (!found) {
        next();
        return;
      }
      // As in express: the body parsers run first, then the params are decoded (a bad one is 400).
      const handle = () => {
        try {
          req.params = decodeParams(found.route, found.raw);
        } catch (error) {
          next(error);
          return;
        }
        (req as { route?: unknown }).route = { path: found.route.path };
        void found.route.handler(req, res, next);
      };
      if (hasBody(req)) runInOrder(bodyParsers, req, res, next, handle);
      else handle();
    };
  }
}

function decodeParams(route: CompiledRoute, raw: readonly string[]): Record<string, string> {
  const params = Object.create(null) as Record<string, string>;
  let index = 0;
  for (const segment of route.segments) {
    if ('param' in segment) params[segment.param] = decodeParam(raw[index++]!);
  }
  return params;
}

/** body-parser's own test (type-is `hasBody`): a body is announced by either header. */
function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']))
  );
}

function runInOrder(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  fail: NextFunction,
  done: () => void,
): void {
  const step = (index: number) => (error?: unknown) => {
    if (error) fail(error);
    else if (index === handlers.length) done();
    else void handlers[index]!(req, res, step(index + 1));
  };
  step(0)();
}
