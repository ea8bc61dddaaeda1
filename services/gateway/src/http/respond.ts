import { fail, ok, type BusinessError, type Locale, type MsgKey } from '@platform/errors';
import type { Response } from 'express';

function localeOf(res: Response): Locale {
  return (res.locals.locale as Locale | undefined) ?? 'en';
}

export function sendOk(
  res: Response,
  data: unknown,
  msgKey?: MsgKey,
  params?: Record<string, unknown>,
): void {
  res.locals.code = 0;
  res.status(200).json(ok(data ?? null, localeOf(res), { msgKey, params }));
}

/** 302 for the redirecting routes (SSO); the URL may carry a token, so nothing may cache it. */
export function sendRedirect(res: Response, location: string): void {
  res.locals.code = 0;
  res.set('Cache-Control', 'no-store');
  res.redirect(302, location);
}

export function sendError(res: Response, error: BusinessError): void {
  res.locals.code = error.code;
  res.status(error.httpStatus).json(fail(error, localeOf(res)));
}
