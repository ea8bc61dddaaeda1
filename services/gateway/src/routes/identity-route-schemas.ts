import { PASSWORD_BOUNDS } from '@platform/contracts';
import { z } from 'zod';
import type { RouteContext } from './route-definition.js';

/** Request and response pieces shared by the identity route tables. */

/** RFC 5321 caps a forward path at 256 octets including the brackets: 254 for the address. */
export const email = z.email().max(254);

/** `captcha_id` / `captcha_token` (and the legacy `captcha_answer`): optional, bounded. */
export const captchaField = z.string().max(256).optional();
/** The optional captcha proof of a public form. */
export const captchaFields = { captcha_id: captchaField, captcha_token: captchaField };

/**
 * Passwords are only bounded here: the policy (PASSWORD_BOUNDS and the site's rules) is the identity
 * service's, so it can list every reason at once (400 / 1001); beyond 1024 characters the body is
 * garbage. The document states the bounds no setting can loosen, which the API enforces.
 */
export const password = z
  .string()
  .max(1024)
  .meta({ ...PASSWORD_BOUNDS, description: "the site's password rules apply too (400 / 1001 naming each)" });

/** One page of a list: `{items, total, page, page_size}`. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

/** Who asked, as the identity RPCs take it (`platform.common.v1.RequestOrigin`). */
export function requestOrigin(context: Pick<RouteContext<unknown>, 'ip' | 'userAgent'>) {
  return { ip: context.ip, user_agent: context.userAgent };
}

/** The call options of a route that acts as its caller: the principal and the request language. */
export function asCaller(context: Pick<RouteContext<unknown>, 'principal' | 'locale'>) {
  return { principal: context.principal, locale: context.locale };
}
