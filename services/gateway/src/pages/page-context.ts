import { BusinessError, ErrorCode, isBusinessError, translate, type Locale } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { Request, Response } from 'express';
import type { ServiceClients } from '../service-clients.js';
import { escapeHtml, renderPage, sendPage } from './render.js';
import type { StaticAssets } from './static-assets.js';

/** What every page handler needs: the identity clients and the assets. */
export interface PageDeps {
  clients: Pick<ServiceClients, 'verification' | 'settings'>;
  assets: StaticAssets;
  logger: Logger;
  /** Where `/sso/complete` hands the sign-in over (docs/account-pages.md). */
  sso: { openerOrigin?: string; returnUrl?: string };
}

/** The page language: the gateway's `Accept-Language` negotiation (en/zh), as for the API. */
export function localeOf(res: Response): Locale {
  return (res.locals.locale as Locale | undefined) ?? 'en';
}

/** The request's caller, as the API routes pass it to identity (audit, notifications). */
export function originOf(req: Request) {
  return { ip: req.ip ?? '', user_agent: req.header('user-agent') ?? '' };
}

/** A single query or form value; repeated or missing parameters count as absent. */
export function singleValue(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The catalog text of a failure, exactly what the API would put in `msg`. */
export function failureMessage(error: BusinessError, locale: Locale): string {
  return translate(error.msgKey, locale, error.data);
}

/** Anything not a business error (a bug) is logged and reported as the API reports it: 1003. */
export function asBusinessError(deps: PageDeps, req: Request, error: unknown): BusinessError {
  if (isBusinessError(error)) return error;
  deps.logger.error({ err: error, path: req.path }, 'account page failed');
  return new BusinessError(ErrorCode.INTERNAL_ERROR);
}

/** An outcome line: green for success, red for a failure (role alert so readers announce it). */
export function outcome(kind: 'ok' | 'error', text: string, detail?: string): string {
  const role = kind === 'ok' ? 'status' : 'alert';
  const more = detail ? `\n<p class="detail">${escapeHtml(detail)}</p>` : '';
  return `<p class="outcome ${kind}" role="${role}">${escapeHtml(text)}</p>${more}`;
}

/** Renders and sends a page whose card is a title and one outcome. */
export function sendOutcome(
  deps: PageDeps,
  res: Response,
  options: { status: number; title: string; kind: 'ok' | 'error'; text: string; detail?: string },
): void {
  const locale = localeOf(res);
  const body = outcome(options.kind, options.text, options.detail);
  sendPage(res, options.status, locale, renderPage(deps.assets, { locale, title: options.title, body }));
}
