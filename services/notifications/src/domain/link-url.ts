import { isSafeLinkUrl, LINK_URL_RULE } from '@platform/contracts';
import { BusinessError } from '@platform/errors';

// The rule is the contract's (packages/contracts link-url.ts): the gateway states and checks it
// at the edge; automatic notifications (events) drop an unsafe link with it.
export { isSafeLinkUrl } from '@platform/contracts';

/**
 * A create request's `link_url`: null when empty, else safe or 1001 naming the field. Checked here
 * again although the gateway refused it first: a stored link is opened by every reader's browser,
 * so the service that stores it does not rely on its caller for that.
 */
export function readLinkUrl(value: string | undefined): string | null {
  if (!value) return null;
  if (!isSafeLinkUrl(value)) throw BusinessError.validation({ link_url: [LINK_URL_RULE] });
  return value;
}
