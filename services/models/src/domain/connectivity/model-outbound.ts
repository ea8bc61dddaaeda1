import { BusinessError } from '@platform/errors';
import {
  checkTarget,
  classifyAddress,
  createAllowlist,
  isPolicyRefusal,
  normalizeHost,
  OutboundBlockedError,
  OutboundHttpError,
  outboundRequest,
  systemResolver,
  type OutboundRequestInit,
  type OutboundResponse,
  type Resolver,
} from '@platform/outbound-http';
import { officialOrigins } from '../catalog/providers.js';
import type { ModelsDependencies } from '../../deps.js';

export type OutboundDeps = Pick<ModelsDependencies, 'allowlist' | 'resolve'>;

/** Upstream calls of a test or a discovery are light: a short budget and a small body. */
const LIMITS = { timeoutMs: 15_000, connectTimeoutMs: 5_000, maxResponseBytes: 1024 * 1024, maxRedirects: 3 };

const OFFICIAL_HOSTS: ReadonlySet<string> = new Set(
  officialOrigins().map((origin) => normalizeHost(new URL(origin).hostname) ?? ''),
);

/**
 * The catalog's official vendor hosts are public services: one that resolves to a non-public
 * address (DNS poisoning or rebinding) is refused even though its origin is allowlisted. Only an
 * origin an admin registered may lead to a private address.
 */
export function officialHostsPublicOnly(resolve: Resolver): Resolver {
  return async (hostname) => {
    const answers = await resolve(hostname);
    const host = normalizeHost(hostname);
    if (host && OFFICIAL_HOSTS.has(host)) {
      const inside = answers.find((answer) => classifyAddress(answer.address)?.range !== 'public');
      if (inside) {
        throw new OutboundBlockedError(
          'blocked_address',
          `${host} is an official provider host but resolved to the non-public address ${inside.address}`,
          { address: inside.address },
        );
      }
    }
    return answers;
  };
}

/** The refusal the admin API reports for a URL the guard will not call (`model_endpoint_not_allowed`). */
export function endpointNotAllowed(error: OutboundHttpError): BusinessError {
  return BusinessError.named('model_endpoint_not_allowed', {
    data: { reason: error.reason, detail: error.message },
  });
}

/**
 * The check when a base URL is saved, without DNS: the origin must be in the allowlist, and
 * metadata or link-local literals are refused whatever the list says. The address a name resolves
 * to is checked when a request connects.
 */
export async function assertEndpointAllowed(deps: OutboundDeps, baseUrl: string): Promise<void> {
  const allowlist = createAllowlist(await deps.allowlist.origins());
  try {
    checkTarget(new URL(baseUrl), allowlist, true);
  } catch (error) {
    if (error instanceof OutboundHttpError) throw endpointNotAllowed(error);
    throw error;
  }
}

/**
 * One request to a model endpoint through the outbound guard (packages/outbound-http): allowlisted
 * origins only, the resolved address checked at connect time, every redirect hop checked again.
 * Policy refusals become `model_endpoint_not_allowed`; wire failures and limits are rethrown as the
 * guard's `OutboundHttpError` for the caller to report.
 */
export async function modelRequest(
  deps: OutboundDeps,
  url: string,
  init: OutboundRequestInit,
): Promise<OutboundResponse> {
  try {
    return await outboundRequest(
      url,
      { purpose: 'model_check', ...init },
      {
        allowlist: () => deps.allowlist.origins(),
        requireAllowlisted: true,
        resolve: officialHostsPublicOnly(deps.resolve ?? systemResolver),
        ...LIMITS,
      },
    );
  } catch (error) {
    if (error instanceof OutboundHttpError && isPolicyRefusal(error)) throw endpointNotAllowed(error);
    throw error;
  }
}

/** The upstream's own error text from an error response (OpenAI-style JSON or plain text). */
export function upstreamErrorText(response: OutboundResponse): string {
  const raw = response.text().trim();
  let detail = raw;
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === 'string') detail = error;
    else if (
      error &&
      typeof error === 'object' &&
      typeof (error as { message?: unknown }).message === 'string'
    )
      detail = (error as { message: string }).message;
    else if (typeof body.message === 'string') detail = body.message;
    else if (typeof body.detail === 'string') detail = body.detail;
  } catch {
    // Not JSON: the text as it came.
  }
  const text = detail.length > 500 ? `${detail.slice(0, 500)}…` : detail;
  return `HTTP ${response.status}: ${text || 'no error text'}`;
}

/** Headers of a model call: the key as a Bearer token when there is one. */
export function authHeaders(apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}
