import type { RouteDefinition } from '../routes/route-definition.js';

/** What an API key must be allowed to do on one request: the route's scope and addressed resource. */
export interface ApiKeyCheck {
  scope: string;
  agentId?: string;
  workflowId?: string;
  /** The permission the key's owner must hold right now (a key never exceeds its owner). */
  ownerPermission?: string;
}

/** The check a route declares, with the resource id taken from the request's path parameters. */
export function apiKeyCheckFor(
  route: Pick<
    RouteDefinition<unknown>,
    'auth' | 'apiKeyScope' | 'apiKeyResource' | 'apiKeyPermission' | 'permission'
  >,
  params: Record<string, string | string[]>,
): ApiKeyCheck | undefined {
  if (route.auth !== 'user_or_api_key') return undefined;
  const raw = route.apiKeyResource ? params[route.apiKeyResource.param] : undefined;
  const resourceId = typeof raw === 'string' ? raw : undefined;
  return {
    // A route without a declared scope accepts no API key (empty scope never matches).
    scope: route.apiKeyScope ?? '',
    agentId: route.apiKeyResource?.kind === 'agent' ? resourceId : undefined,
    workflowId: route.apiKeyResource?.kind === 'workflow' ? resourceId : undefined,
    ownerPermission: route.apiKeyPermission ?? route.permission,
  };
}
