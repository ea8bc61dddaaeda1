import type { commonV1 } from '@platform/contracts';

const startedAt = new Date().toISOString();

/** The GetInfo RPC every service exposes: name, version, schema version, start time. */
export function serviceInfoHandler(service: string, version: string, schemaVersion: () => Promise<string>) {
  return async (): Promise<commonV1.ServiceInfo> => ({
    service,
    version,
    schema_version: await schemaVersion(),
    started_at: startedAt,
  });
}
