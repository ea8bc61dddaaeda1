import { identityV1 } from '@platform/contracts';
import * as directoryV1 from '@platform/contracts/platform/identity/v1/directory';
import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createOutgoingTrust, createServiceClient, type OutgoingTrustOptions } from '@platform/grpc';
import { stackEnv } from '@platform/testing';

export interface InternalCaller {
  /** The calling service's name (the `sub` of its service token). */
  service: string;
  /** The key its tokens are signed with; defaults to that service's own dev key (stackEnv). */
  serviceSigningKey?: OutgoingTrustOptions['serviceSigningKey'];
  /** Only to test what identity does with a principal from a non-gateway signer. */
  principalSigningKey?: string;
}

/** identity's clients as another service holds them: its service token for audience `identity`. */
export function identityClientsAs(address: string, caller: InternalCaller) {
  const credentials = createOutgoingTrust({
    service: caller.service,
    serviceSigningKey: caller.serviceSigningKey ?? stackEnv.serviceSigningKey(caller.service),
    principalSigningKey: caller.principalSigningKey,
  }).to('identity');
  const options = { defaultTimeoutMs: 5_000, credentials };
  const identity = createServiceClient(
    identityV1.IdentityServiceService,
    'platform.identity.v1.IdentityService',
    address,
    options,
  );
  const settings = createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    address,
    options,
  );
  const directory = createServiceClient(
    directoryV1.DirectoryServiceService,
    'platform.identity.v1.DirectoryService',
    address,
    options,
  );
  return {
    identity,
    settings,
    directory,
    close() {
      identity.close();
      settings.close();
      directory.close();
    },
  };
}
