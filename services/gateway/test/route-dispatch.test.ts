import { listen, type RunningHttp } from '@platform/testing';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, routeTable } from '../src/index.js';
import { RouteDispatch } from '../src/http/route-dispatch.js';

// The dispatch in front of express must pick, for every request it takes, exactly the route and
// params express's router would (table order, case, trailing slash, percent-decoding, a 400 on a
// bad escape), and leave everything else to express. Both are run on the real route table.

type Answer = { status: number; route?: string; params?: Record<string, string>; by?: string };

const echo = (by: string) => (req: Request, res: Response) => {
  res.json({ route: (req.route as { path: string }).path, params: { ...req.params }, by });
};
const statusOf = (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  res.status((error as { status?: number }).status ?? 500).json({});
};

function expressRouter(): express.Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  for (const route of routeTable) router[route.method](route.path, echo('express'));
  return router;
}

function expressOnlyApp(): express.Express {
  const app = express();
  app.use(API_PREFIX, expressRouter());
  app.use(statusOf);
  return app;
}

function dispatchedApp(): express.Express {
  const app = express();
  const dispatch = new RouteDispatch(
    API_PREFIX,
    routeTable.map((route) => ({ method: route.method, path: route.path, handler: echo('dispatch') })),
  );
  app.use(dispatch.middleware([]));
  app.use(API_PREFIX, expressRouter());
  app.use(statusOf);
  return app;
}

/** Every table path with its parameters filled in a few ways, and its near misses. */
function targets(): { method: string; path: string }[] {
  const values = ['abc', 'a%2Fb', '%E0%A4%A', '%ED%A0%80', 'x.y', 'me'];
  const out: { method: string; path: string }[] = [];
  for (const route of routeTable) {
    const method = route.method.toUpperCase();
    const fill = (value: string) => `${API_PREFIX}${route.path.replace(/:[A-Za-z_]+/g, value)}`;
    for (const value of values) out.push({ method, path: fill(value) }, { method, path: `${fill(value)}/` });
    const path = fill('abc');
    out.push({ method, path: `${path}//` }, { method, path: `${path}?a=1&b=%ZZ` });
    out.push({ method: 'HEAD', path }, { method: 'OPTIONS', path }, { method, path: path.toUpperCase() });
    out.push({ method, path: path.replace('/api/v1', '/API/v1') }, { method, path: `${path}/extra` });
    out.push({ method: method === 'GET' ? 'POST' : 'GET', path });
    out.push({ method, path: `${API_PREFIX}${route.path.replace(/:[A-Za-z_]+/g, '')}` });
    out.push({ method, path: `/${API_PREFIX}${route.path}` });
  }
  return out;
}

let plain: RunningHttp;
let dispatched: RunningHttp;

beforeAll(async () => {
  plain = await listen(expressOnlyApp());
  dispatched = await listen(dispatchedApp());
});

afterAll(async () => {
  await plain?.close();
  await dispatched?.close();
});

async function ask(base: string, method: string, path: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method });
  const text = method === 'HEAD' ? '' : await response.text();
  const body = (text.startsWith('{') ? JSON.parse(text) : {}) as Omit<Answer, 'status'>;
  return { status: response.status, ...body };
}

describe('route dispatch', () => {
  it('answers every request exactly as express routes it, and takes the plain ones itself', async () => {
    const all = targets();
    let byDispatch = 0;
    for (let i = 0; i < all.length; i += 25) {
      await Promise.all(
        all.slice(i, i + 25).map(async ({ method, path }) => {
          const [expected, actual] = await Promise.all([
            ask(plain.baseUrl, method, path),
            ask(dispatched.baseUrl, method, path),
          ]);
          if (actual.by === 'dispatch') byDispatch += 1;
          expect({ method, path, ...actual, by: undefined }).toEqual({
            method,
            path,
            ...expected,
            by: undefined,
          });
        }),
      );
    }
    // Sanity: the dispatch does take the ordinary requests (each route with plain values at least).
    expect(byDispatch).toBeGreaterThan(routeTable.length * 3);
  }, 60_000);

  it('keeps the table order when a literal and a parameter both fit (`/users/me` style)', async () => {
    const app = express();
    const first = (_req: Request, res: Response) => void res.json({ which: 'param' });
    const second = (_req: Request, res: Response) => void res.json({ which: 'literal' });
    app.use(
      new RouteDispatch('/api', [
        { method: 'get', path: '/items/:id', handler: first },
        { method: 'get', path: '/items/me', handler: second },
      ]).middleware([]),
    );
    const http = await listen(app);
    try {
      const body = (await (await fetch(`${http.baseUrl}/api/items/me`)).json()) as { which: string };
      expect(body.which).toBe('param');
    } finally {
      await http.close();
    }
  });
});
