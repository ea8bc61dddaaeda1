import { isIPv4, isIPv6 } from 'node:net';

/**
 * Byte-level IP parsing. `node:net` tells whether a string is an address but not what it reaches;
 * the guard needs the bytes to see through IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms.
 */

export type IpBytes = { family: 4; bytes: Uint8Array } | { family: 6; bytes: Uint8Array };

/** A bare IP literal (no brackets) → its bytes, or null when it is not an IP address. */
export function parseIp(input: string): IpBytes | null {
  const text = stripBrackets(input);
  if (isIPv4(text)) return { family: 4, bytes: parseIPv4(text) };
  const noZone = text.split('%')[0] ?? '';
  if (isIPv6(noZone)) return { family: 6, bytes: parseIPv6(noZone) };
  return null;
}

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function formatIPv4(bytes: Uint8Array, offset = 0): string {
  return [0, 1, 2, 3].map((i) => String(bytes[offset + i] ?? 0)).join('.');
}

/** Whether the first `prefix` bits of `bytes` equal those of `base`. */
export function inPrefix(bytes: Uint8Array, base: Uint8Array, prefix: number): boolean {
  const full = Math.floor(prefix / 8);
  for (let i = 0; i < full; i += 1) if (bytes[i] !== base[i]) return false;
  const rest = prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[full] ?? 0) & mask) === ((base[full] ?? 0) & mask);
}

function parseIPv4(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map((part) => Number(part)));
}

/** Expects a string `isIPv6` accepted (so at most one `::`, valid groups, optional dotted tail). */
function parseIPv6(text: string): Uint8Array {
  let head = text;
  const tail: number[] = [];
  const lastColon = head.lastIndexOf(':');
  const last = head.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    head = head.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (part: string | undefined): number[] =>
    part ? part.split(':').map((g) => parseInt(g, 16)) : [];
  const leftGroups = groups(left);
  const rightGroups = [...groups(right), ...tail];
  const zeros = 8 - leftGroups.length - rightGroups.length;
  const all =
    right === undefined
      ? [...leftGroups, ...tail]
      : [...leftGroups, ...new Array<number>(zeros).fill(0), ...rightGroups];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[i * 2] = (group >> 8) & 0xff;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** `fd00:ec2::254` → its 16 bytes; for the constant tables. */
export function ipBytes(literal: string): Uint8Array {
  const parsed = parseIp(literal);
  if (!parsed) throw new Error(`not an IP address: ${literal}`);
  return parsed.bytes;
}
