import type { Metadata } from '@grpc/grpc-js';
import { MetadataKeys, readPrincipalBytes } from '../metadata.js';
import { PrincipalSigner } from './principal-token.js';
import { ServiceTokenSigner } from './service-token.js';

/** Adds a caller's credentials to the metadata of one outgoing call (see `createServiceClient`). */
export interface CallCredentials {
  /** Synchronous (no promise) when every token it needs is already signed and fresh. */
  apply(metadata: Metadata): void | Promise<void>;
}

export interface OutgoingTrustOptions {
  /** This process's service name: the `sub` of its service tokens. */
  service: string;
  /** SERVICE_SIGNING_PRIVATE_KEY: this service's own Ed25519 key (PKCS8 PEM); it signs as `service` only. */
  serviceSigningKey: string;
  /** PRINCIPAL_SIGNING_PRIVATE_KEY: only the gateway has one, so only it can forward principals. */
  principalSigningKey?: string;
}

export interface OutgoingTrust {
  /** Credentials for calls to the named service (the audience of every token sent to it). */
  to(audience: string): CallCredentials;
}

/**
 * A process's outgoing credentials, built once at start: every call carries a service token for
 * its audience, and — when the process holds the signing key — a signature over the principal it
 * forwards. A principal forwarded without a signing key goes unsigned, and the callee refuses it.
 */
export function createOutgoingTrust(options: OutgoingTrustOptions): OutgoingTrust {
  const services = new ServiceTokenSigner(options.service, options.serviceSigningKey);
  const principals = options.principalSigningKey
    ? new PrincipalSigner(options.principalSigningKey)
    : undefined;
  return {
    to(audience) {
      return {
        apply(metadata) {
          const principal = readPrincipalBytes(metadata);
          const signs = principal !== undefined && principals !== undefined;
          // The common case: both tokens were signed by an earlier call and are still reused.
          const token = services.cached(audience);
          const signature = signs ? principals.cached(audience, principal) : undefined;
          if (token !== undefined && (!signs || signature !== undefined)) {
            if (signature) metadata.set(MetadataKeys.principalSignature, signature);
            metadata.set(MetadataKeys.serviceToken, token);
            return undefined;
          }
          return (async () => {
            const [freshSignature, freshToken] = await Promise.all([
              signs ? principals.sign(audience, principal) : undefined,
              services.token(audience),
            ]);
            if (freshSignature) metadata.set(MetadataKeys.principalSignature, freshSignature);
            metadata.set(MetadataKeys.serviceToken, freshToken);
          })();
        },
      };
    },
  };
}
