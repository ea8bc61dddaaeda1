import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';

/** `services/gateway/public`, beside `src/` and `dist/` (the image ships it next to `dist`). */
export const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');

const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** First 16 hex digits of the SHA-256: the `?v=` the pages link with. */
  version: string;
}

export interface StaticAssets {
  /** `/assets/<name>?v=<version>`: a new version is a new URL, so browsers may cache forever. */
  url(name: string): string;
  handler(req: Request, res: Response): void;
}

/**
 * The pages' CSS and scripts, read once at start (a handful of small files) and served from memory
 * with a strong ETag. A request naming the current `?v=` is cached for a year (`immutable`); any
 * other (no or an old version) must revalidate (`no-cache`), so a deploy never mixes versions.
 */
export function loadStaticAssets(names: readonly string[], dir = PUBLIC_DIR): StaticAssets {
  const assets = new Map<string, Asset>();
  for (const name of names) {
    const body = readFileSync(join(dir, name));
    const hash = createHash('sha256').update(body).digest('hex');
    const type = TYPES[name.split('.').pop() ?? ''];
    if (!type) throw new Error(`pages: no content type for ${name}`);
    assets.set(name, { body, type, etag: `"${hash.slice(0, 32)}"`, version: hash.slice(0, 16) });
  }
  return {
    url(name) {
      const asset = assets.get(name);
      if (!asset) throw new Error(`pages: unknown asset ${name}`);
      return `/assets/${name}?v=${asset.version}`;
    },
    handler(req, res) {
      const asset = assets.get(String(req.params.name));
      if (!asset) {
        res.status(404).type('text/plain').send('Not found');
        return;
      }
      res.setHeader('Content-Type', asset.type);
      res.setHeader('ETag', asset.etag);
      res.setHeader(
        'Cache-Control',
        req.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.status(200).send(asset.body);
    },
  };
}
