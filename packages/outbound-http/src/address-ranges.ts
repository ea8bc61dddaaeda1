import { formatIPv4, inPrefix, ipBytes, parseIp, type IpBytes } from './ip-address.js';

/**
 * Which kind of address an IP is. `metadata` and `link_local` are never reachable through the
 * guard; every other non-`public` range only for an origin the allowlist names explicitly.
 */
export type AddressRange =
  | 'public'
  | 'metadata'
  | 'link_local'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'unique_local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export interface AddressClass {
  range: AddressRange;
  /** The IPv4 address an IPv6 form (mapped, compatible, NAT64, 6to4) really reaches, if any. */
  embeddedIPv4?: string;
}

type Rule = readonly [base: Uint8Array, prefix: number, range: AddressRange];
const v4 = rule;
const v6 = rule;

function rule(cidr: string, range: AddressRange): Rule {
  const [base, prefix] = cidr.split('/');
  return [ipBytes(base ?? ''), Number(prefix), range];
}

// Cloud instance-metadata and credential endpoints. Some sit outside link-local (Alibaba's in
// CGNAT space, Azure's wire server in public space), so they are named one by one.
const METADATA_V4: readonly Rule[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack
  v4('169.254.170.2/32', 'metadata'), // AWS ECS task credentials
  v4('169.254.170.23/32', 'metadata'), // AWS EKS pod identity
  v4('169.254.0.23/32', 'metadata'), // Tencent Cloud
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4('168.63.129.16/32', 'metadata'), // Azure wire server
];

// First match wins, so narrower ranges come before the ones that contain them.
const RULES_V4: readonly Rule[] = [
  ...METADATA_V4,
  v4('169.254.0.0/16', 'link_local'),
  v4('0.0.0.0/8', 'unspecified'),
  v4('127.0.0.0/8', 'loopback'),
  v4('10.0.0.0/8', 'private'),
  v4('172.16.0.0/12', 'private'),
  v4('192.168.0.0/16', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const RULES_V6: readonly Rule[] = [
  v6('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64: its translator is inside the network
  v6('100::/64', 'reserved'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments, Teredo among them
  v6('2001:db8::/32', 'reserved'),
  v6('3fff::/20', 'reserved'),
  v6('fc00::/7', 'unique_local'),
  v6('fe80::/10', 'link_local'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

// IPv6 forms that carry an IPv4 address the packet really goes to: [prefix, prefix bits, offset].
const EMBEDDING_V6: readonly (readonly [Uint8Array, number, number])[] = [
  [ipBytes('::ffff:0:0'), 96, 12], // IPv4-mapped
  [ipBytes('::ffff:0:0:0'), 96, 12], // IPv4-translated (RFC 2765)
  [ipBytes('64:ff9b::'), 96, 12], // NAT64 well-known prefix
  [ipBytes('::'), 96, 12], // IPv4-compatible (deprecated); :: and ::1 are matched first
  [ipBytes('2002::'), 16, 2], // 6to4
];

const GLOBAL_UNICAST_V6 = ipBytes('2000::');

/** Classifies an IP literal (IPv4, IPv6, with or without brackets); null if it is not an IP. */
export function classifyAddress(address: string): AddressClass | null {
  const ip = parseIp(address);
  return ip ? classifyIp(ip) : null;
}

export function classifyIp(ip: IpBytes): AddressClass {
  if (ip.family === 4) return { range: matchRules(ip.bytes, RULES_V4) ?? 'public' };
  const exact = matchRules(ip.bytes, RULES_V6.slice(0, 3));
  if (exact) return { range: exact };
  for (const [base, prefix, offset] of EMBEDDING_V6) {
    if (inPrefix(ip.bytes, base, prefix)) {
      const embedded = formatIPv4(ip.bytes, offset);
      const inner = classifyIp({ family: 4, bytes: ip.bytes.slice(offset, offset + 4) });
      return { range: inner.range, embeddedIPv4: embedded };
    }
  }
  const range = matchRules(ip.bytes, RULES_V6);
  if (range) return { range };
  // Anything outside 2000::/3 is not global unicast today.
  return { range: inPrefix(ip.bytes, GLOBAL_UNICAST_V6, 3) ? 'public' : 'reserved' };
}

function matchRules(bytes: Uint8Array, rules: readonly Rule[]): AddressRange | null {
  for (const [base, prefix, range] of rules) if (inPrefix(bytes, base, prefix)) return range;
  return null;
}

/** Host names that lead to instance metadata whatever DNS answers (checked before any lookup). */
const METADATA_HOSTS: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.azure.internal',
]);

/** `host` is lowercased, without a trailing dot (as `normalizeHost` gives it). */
export function isMetadataHostname(host: string): boolean {
  return METADATA_HOSTS.has(host);
}
