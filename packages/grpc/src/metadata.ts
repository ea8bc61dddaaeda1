import { Metadata } from '@grpc/grpc-js';
import type { Principal } from './principal.js';

export const MetadataKeys = {
  requestId: 'x-request-id',
  locale: 'x-locale',
  // `-bin` keys are binary metadata: the principal travels as UTF-8 JSON.
  principal: 'x-principal-bin',
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

export function readPrincipal(metadata: Metadata): Principal | undefined {
  const raw = metadata.get(MetadataKeys.principal)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as Principal;
  } catch {
    return undefined;
  }
}
