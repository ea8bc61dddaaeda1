import { createOutgoingTrust, type CallCredentials } from '@platform/grpc';

/**
 * The gateway's credentials (service token + principal signature) for calls to `audience`, from
 * the environment (deploy/local/env.sh), so the benches call services the way the gateway does.
 */
export function gatewayCredentials(audience: string): CallCredentials {
  const serviceKeys = process.env.SERVICE_AUTH_KEY;
  const principalSigningKey = process.env.PRINCIPAL_SIGNING_PRIVATE_KEY;
  if (!serviceKeys || !principalSigningKey) {
    throw new Error(
      'SERVICE_AUTH_KEY and PRINCIPAL_SIGNING_PRIVATE_KEY are not set (source deploy/local/env.sh)',
    );
  }
  return createOutgoingTrust({ service: 'gateway', serviceKeys, principalSigningKey }).to(audience);
}
