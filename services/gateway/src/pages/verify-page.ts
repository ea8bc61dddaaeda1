import { BusinessError, ErrorCode, translate } from '@platform/errors';
import type { Request, Response } from 'express';
import {
  asBusinessError,
  failureMessage,
  localeOf,
  originOf,
  sendOutcome,
  singleValue,
  type PageDeps,
} from './page-context.js';
import { pageText } from './page-texts.js';

/**
 * `GET /verify?token=`: the verification mail's link. Verifies on the server (no script needed)
 * through the same `VerifyLink` use case as `GET /api/v1/verify`, and says so, or why not (5006 for
 * an unknown, used or expired link).
 */
export function verifyEmailPage(deps: PageDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const locale = localeOf(res);
    const title = pageText(locale, 'verifyTitle');
    // A HEAD (link checkers, previews) must not use the link up: headers only, nothing verified.
    if (req.method === 'HEAD') {
      sendOutcome(deps, res, { status: 200, title, kind: 'ok', text: title });
      return;
    }
    try {
      const token = singleValue(req.query.token);
      if (!token || token.length > 512) throw new BusinessError(ErrorCode.VERIFICATION_CODE_EXPIRED);
      const verified = await deps.clients.verification.call('verifyLink', { token, origin: originOf(req) });
      sendOutcome(deps, res, {
        status: 200,
        title,
        kind: 'ok',
        text: translate('email_verified', locale),
        detail: pageText(locale, 'verifiedDetail', { email: verified.email }),
      });
    } catch (error) {
      const failure = asBusinessError(deps, req, error);
      sendOutcome(deps, res, {
        status: failure.httpStatus,
        title,
        kind: 'error',
        text: failureMessage(failure, locale),
        detail: pageText(locale, 'verifyFailedDetail'),
      });
    }
  };
}
