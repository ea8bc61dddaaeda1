import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { classifyAddress, type AddressClass } from './address-ranges.js';
import { OutboundBlockedError } from './errors.js';

/** Resolves a host name to every address it has; injectable so tests can play DNS. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The address rule: metadata and link-local never; other non-public ranges only when the
 * request's origin is in the allowlist (`privateAllowed`); public addresses always.
 * Returns the refusal to throw, or null when the address may be reached.
 */
export function refuseAddress(
  address: string,
  privateAllowed: boolean,
  url?: string,
): OutboundBlockedError | null {
  const found = classifyAddress(address);
  // Whatever the resolver returns must be an IP; anything else is refused rather than guessed at.
  if (!found) {
    return new OutboundBlockedError(
      'blocked_address',
      `resolver answered ${address}, which is not an IP address`,
      {
        address,
        ...(url ? { url } : {}),
      },
    );
  }
  const cls: AddressClass = found;
  const reaches = cls.embeddedIPv4 ? ` (reaches ${cls.embeddedIPv4})` : '';
  const details = { address, range: cls.range, ...(url ? { url } : {}) };
  if (cls.range === 'metadata') {
    return new OutboundBlockedError(
      'metadata_address',
      `cloud metadata address ${address}${reaches} is never reachable`,
      details,
    );
  }
  if (cls.range === 'link_local') {
    return new OutboundBlockedError(
      'blocked_address',
      `link-local address ${address}${reaches} is never reachable`,
      details,
    );
  }
  if (cls.range !== 'public' && !privateAllowed) {
    return new OutboundBlockedError(
      'blocked_address',
      `${cls.range} address ${address}${reaches} is reachable only for an allowlisted origin`,
      details,
    );
  }
  return null;
}

export interface GuardedLookupOptions {
  resolve: Resolver;
  privateAllowed: boolean;
  url: string;
  /** Told about each refusal, so the caller can surface it even if a layer wraps the error. */
  onRefused?: (error: OutboundBlockedError) => void;
}

/**
 * The `lookup` handed to `net.connect`: the socket connects to exactly the addresses checked here,
 * in the same call, so DNS cannot answer differently between the check and the connection.
 * A name with any refused address is refused whole (a mixed answer is a rebinding tell).
 */
export function guardedLookup(options: GuardedLookupOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options.resolve(hostname).then(
      (answers) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = answers.filter((a) => family === 0 || a.family === family);
        for (const answer of answers) {
          const refusal = refuseAddress(answer.address, options.privateAllowed, options.url);
          if (refusal) {
            options.onRefused?.(refusal);
            callback(refusal as unknown as NodeJS.ErrnoException, '');
            return;
          }
        }
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`no address found for ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (lookupOptions.all)
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
