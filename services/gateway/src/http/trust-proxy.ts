import { isIP } from 'node:net';

/**
 * TRUST_PROXY: which hops in front of the gateway may tell it the client's address
 * (`X-Forwarded-For`). It decides `req.ip`, which the audit log, the login anomaly check, the
 * captcha binding and every per-address limit read (docs/gateway.md "Client address").
 *
 * - a hop count (`1`: the one proxy in front, e.g. the Kubernetes Ingress controller): the address
 *   that proxy saw, whatever a client wrote further left in the header;
 * - a comma-separated list of addresses, CIDR ranges or express's names `loopback`, `linklocal`,
 *   `uniquelocal`: only a peer in the list is believed, hop by hop;
 * - `false`: the header is never read.
 *
 * `true` (believe every hop) is refused: it makes the client address whatever the client writes.
 */
export type TrustProxySetting = false | number | string;

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', suffix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (suffix === undefined) return true;
  if (isIP(suffix) !== 0) return true; // address/netmask
  const bits = /^\d{1,3}$/.test(suffix) ? Number(suffix) : -1;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

/** The express `trust proxy` value for a TRUST_PROXY text, or an error message. */
export function parseTrustProxy(text: string): { value: TrustProxySetting } | { error: string } {
  const value = text.trim();
  if (value === 'false') return { value: false };
  if (value === 'true') {
    return { error: 'true would believe any X-Forwarded-For; give a hop count or the proxies’ addresses' };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 10 ? { value: hops } : { error: 'a hop count must be at most 10' };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    return { error: `not an address, CIDR range, loopback, linklocal or uniquelocal: ${bad.join(', ')}` };
  }
  return { value: entries.join(',') };
}
