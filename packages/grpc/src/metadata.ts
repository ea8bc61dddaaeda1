import { Metadata } from '@grpc/grpc-js';
import type { Principal } from './principal.js';

export const MetadataKeys = {
  requestId: 'x-request-id',
  locale: 'x-locale',
  // `-bin` keys are binary metadata: the principal travels as UTF-8 JSON.
  principal: 'x-principal-bin',
  // The gateway's signature over the principal bytes for the called service (docs/security.md).
  principalSignature: 'x-principal-sig',
  // The calling service's identity, required by internal-only methods.
  serviceToken: 'x-service-token',
} as const;

export interface OutgoingContext {
  requestId: string;
  locale?: string;
  principal?: Principal;
}

export function toMetadata(context: OutgoingContext): Metadata {
  const metadata = new Metadata();
  metadata.set(MetadataKeys.requestId, context.requestId);
  if (context.locale) metadata.set(MetadataKeys.locale, context.locale);
  if (context.principal) {
    metadata.set(MetadataKeys.principal, Buffer.from(JSON.stringify(context.principal), 'utf8'));
  }
  return metadata;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}

export function readRequestId(metadata: Metadata): string | undefined {
  return firstString(metadata, MetadataKeys.requestId);
}

export function readLocale(metadata: Metadata): string {
  return firstString(metadata, MetadataKeys.locale) ?? 'en';
}

/** The principal bytes exactly as received (what the gateway's signature covers). */
export function readPrincipalBytes(metadata: Metadata): Buffer | undefined {
  const raw = metadata.get(MetadataKeys.principal)[0];
  return Buffer.isBuffer(raw) ? raw : undefined;
}

/**
 * Decodes the principal WITHOUT checking its signature: only for code that already trusts the
 * metadata (the server's trust check calls it after verification).
 */
export function readPrincipal(metadata: Metadata): Principal | undefined {
  const raw = readPrincipalBytes(metadata);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as Principal;
  } catch {
    return undefined;
  }
}

export function readStringValue(metadata: Metadata, key: string): string | undefined {
  return firstString(metadata, key);
}
