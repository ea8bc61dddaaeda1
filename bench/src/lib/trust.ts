import { createOutgoingTrust, type CallCredentials } from '@platform/grpc';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source deploy/local/env.sh)`);
  return value;
}

/** `agent-runtime` → `SERVICE_SIGNING_PRIVATE_KEY_AGENT_RUNTIME`, as deploy/local/env.sh names them. */
const signingKeyVariable = (service: string) =>
  `SERVICE_SIGNING_PRIVATE_KEY_${service.toUpperCase().replace(/-/g, '_')}`;

/** `service`'s own private key (docs/security.md), from the environment (deploy/local/env.sh). */
export function serviceSigningKey(service: string): string {
  return required(signingKeyVariable(service));
}

/**
 * The private key a bench's child process of `service` gets, as deploy/local/services.sh gives it
 * (its callers' public keys come with the rest of the environment).
 */
export function ownSigningKeyEnv(service: string): { SERVICE_SIGNING_PRIVATE_KEY: string } {
  return { SERVICE_SIGNING_PRIVATE_KEY: serviceSigningKey(service) };
}

/**
 * The gateway's credentials (service token + principal signature) for calls to `audience`, from
 * the environment (deploy/local/env.sh), so the benches call services the way the gateway does.
 */
export function gatewayCredentials(audience: string): CallCredentials {
  return createOutgoingTrust({
    service: 'gateway',
    serviceSigningKey: serviceSigningKey('gateway'),
    principalSigningKey: required('PRINCIPAL_SIGNING_PRIVATE_KEY'),
  }).to(audience);
}
