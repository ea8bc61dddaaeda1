import type { Metadata } from '@grpc/grpc-js';
import { BusinessError, ErrorCode } from '@platform/errors';
import { MetadataKeys, readPrincipal, readPrincipalBytes, readStringValue } from '../metadata.js';
import type { Principal } from '../principal.js';
import { PrincipalVerifier } from './principal-token.js';
import { ServiceTokenVerifier } from './service-token.js';
import { TrustRejection } from './trust-rejection.js';

export interface ServerTrustOptions {
  /** This service's name: the audience every principal signature and service token must name. */
  audience: string;
  /** PRINCIPAL_SIGNING_PUBLIC_KEY (SPKI PEM, Ed25519; comma-separated for rotation). */
  principalPublicKeys: string | readonly string[];
  /**
   * The public key(s) of each service allowed to call an internal-only method here, by caller name
   * (SERVICE_PUBLIC_KEY_<CALLER>; two while that caller rotates). A token naming any other caller
   * is refused.
   */
  callerKeys: Readonly<Record<string, string | readonly string[]>>;
}

/** Who a call is from, once its credentials were checked. */
export interface AuthenticatedCall {
  principal: Principal | undefined;
  /** The calling service, set for internal-only methods. */
  caller: string | undefined;
}

export interface ServerTrust {
  readonly audience: string;
  /**
   * Checks one call: a principal must carry a valid gateway signature; an internal-only method
   * (`allowedCallers` given) needs a valid service token from one of those callers. Throws a
   * `TrustRejection` otherwise.
   */
  authenticate(metadata: Metadata, allowedCallers: readonly string[] | undefined): Promise<AuthenticatedCall>;
}

export function createServerTrust(options: ServerTrustOptions): ServerTrust {
  const principals = new PrincipalVerifier(options.audience, options.principalPublicKeys);
  const services = new ServiceTokenVerifier(options.audience, options.callerKeys);
  return {
    audience: options.audience,
    async authenticate(metadata, allowedCallers) {
      let principal: Principal | undefined;
      const bytes = readPrincipalBytes(metadata);
      if (bytes) {
        await principals.verify(readStringValue(metadata, MetadataKeys.principalSignature), bytes);
        principal = readPrincipal(metadata);
        if (!principal) throw new TrustRejection('unauthenticated', 'signed principal is not valid JSON');
      }
      let caller: string | undefined;
      if (allowedCallers) {
        caller = await services.verify(readStringValue(metadata, MetadataKeys.serviceToken));
        if (!allowedCallers.includes(caller)) {
          throw new TrustRejection('forbidden', `service ${caller} may not call this method`);
        }
      }
      return { principal, caller };
    },
  };
}

/**
 * What the caller learns: 401 / 2001 for missing or bad credentials (UNAUTHENTICATED on the wire),
 * 403 / 3000 for a known service calling a method not declared for it (PERMISSION_DENIED).
 */
export function rejectionToBusinessError(rejection: TrustRejection): BusinessError {
  return rejection.kind === 'forbidden'
    ? new BusinessError(ErrorCode.PERMISSION_DENIED)
    : new BusinessError(ErrorCode.INVALID_TOKEN);
}
