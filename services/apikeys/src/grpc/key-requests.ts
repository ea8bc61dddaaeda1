import {
  API_KEY_SCOPES,
  API_KEY_STATUSES,
  type ApiKeyScope,
  type ApiKeyStatusName,
} from '@platform/contracts';
import { BusinessError } from '@platform/errors';

/**
 * The apikeys handlers' translation of the closed sets a request carries as proto enums into the
 * names the use cases and the database work with.
 */

/**
 * Scopes a create or update names. Unspecified, or a value this build does not know, is refused as
 * a request-shape error (1001), like a scope name outside the set at the gateway.
 */
export function requestedScopes(values: readonly number[]): ApiKeyScope[] {
  const names = values.map((value) => API_KEY_SCOPES.fromProto(value));
  if (names.some((name) => name === undefined)) {
    throw BusinessError.validation(
      { scopes: [`allowed values: ${API_KEY_SCOPES.names.join(', ')}`] },
      { httpStatus: 400 },
    );
  }
  return [...new Set(names as ApiKeyScope[])];
}

/** The list's status filter; values this build does not know filter nothing (as before enums). */
export function requestedStatuses(values: readonly number[]): ApiKeyStatusName[] {
  const names = values.map((value) => API_KEY_STATUSES.fromProto(value));
  return [...new Set(names.filter((name): name is ApiKeyStatusName => name !== undefined))];
}
