import type { Locale } from '@platform/errors';
import type { Response } from 'express';
import type { StaticAssets } from './static-assets.js';

/**
 * No inline script or style at all, nothing from another origin; scripts and the stylesheet come
 * from `/assets/` on this origin, the only request a page script makes is to this origin's API, and
 * the reset form may only post back here.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON for a `<script type="application/json">` data block (never executed, so CSP allows it). */
export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export interface PageContent {
  locale: Locale;
  title: string;
  /** Already-escaped HTML of the card. */
  body: string;
  /** Asset names of scripts to load (deferred). */
  scripts?: string[];
  /** `data-*` attributes of `<body>` (values escaped here). */
  data?: Record<string, string>;
}

/** One page: a centred card, readable from a 320 px phone to a desktop (see public/pages.css). */
export function renderPage(assets: StaticAssets, page: PageContent): string {
  const data = Object.entries(page.data ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  const scripts = (page.scripts ?? [])
    .map((name) => `<script src="${escapeHtml(assets.url(name))}" defer></script>`)
    .join('\n');
  return `<!doctype html>
<html lang="${page.locale === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(page.title)}</title>
<link rel="stylesheet" href="${escapeHtml(assets.url('pages.css'))}">
${scripts}
</head>
<body${data}>
<main class="card">
<h1>${escapeHtml(page.title)}</h1>
${page.body}
</main>
</body>
</html>
`;
}

/**
 * Sends a page. `no-store`: every page is reached through a URL carrying a secret (reset or
 * verification token) or answers with one (the SSO fragment is read by the page), so neither the
 * browser nor a proxy may keep a copy.
 */
export function sendPage(res: Response, status: number, locale: Locale, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Language', locale === 'zh' ? 'zh-CN' : 'en');
  res.setHeader('Vary', 'Accept-Language');
  res.send(html);
}
