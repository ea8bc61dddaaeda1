import {
  classifyAddress,
  isMetadataHostname,
  refuseAddress,
  systemResolver,
  type OutboundBlockedError,
  type Resolver,
} from '@platform/outbound-http';
import { permanentFailure, transientFailure } from '../../domain/delivery/delivery-ports.js';

export interface SmtpAddressPolicy {
  /** Loopback and private addresses allowed for every host (DELIVERY_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks?: boolean;
  /** Host names (or IPs) the operator registered as private relays (SMTP_PRIVATE_HOSTS). */
  privateHosts?: readonly string[];
  /** Tests play DNS with it. */
  resolve?: Resolver;
}

export interface SmtpConnectTarget {
  /** The checked IP address the connection is made to. */
  address: string;
  /** The configured host name, for TLS (SNI and certificate check); absent for an IP literal. */
  servername?: string;
}

const lowerBare = (host: string) => {
  const lower = host.trim().toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
};

function refused(error: OutboundBlockedError) {
  return permanentFailure('delivery_url_refused', {
    reason: error.reason === 'metadata_address' ? 'metadata address' : 'private address',
  });
}

/**
 * The SMTP host under the same address rule as HTTP destinations (docs/outbound-http.md): cloud
 * metadata and link-local never, loopback/private/reserved only where allowed, public always. The
 * name is resolved once, every answer is checked (a mixed answer is refused whole), and the mail
 * connection is then made to the checked address itself, so DNS cannot answer differently between
 * the check and the connection.
 */
export async function smtpConnectTarget(
  rawHost: string,
  policy: SmtpAddressPolicy = {},
): Promise<SmtpConnectTarget> {
  const host = lowerBare(rawHost);
  if (isMetadataHostname(host))
    throw permanentFailure('delivery_url_refused', { reason: 'metadata address' });
  const privateAllowed =
    policy.allowPrivateNetworks === true ||
    (policy.privateHosts ?? []).some((entry) => lowerBare(entry) === host);
  if (classifyAddress(host)) {
    const refusal = refuseAddress(host, privateAllowed);
    if (refusal) throw refused(refusal);
    return { address: host };
  }
  let answers: Awaited<ReturnType<Resolver>>;
  try {
    answers = await (policy.resolve ?? systemResolver)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EDNS';
    throw transientFailure('delivery_connection_failed', { reason: `${code}: ${host}` });
  }
  for (const answer of answers) {
    const refusal = refuseAddress(answer.address, privateAllowed);
    if (refusal) throw refused(refusal);
  }
  // IPv4 first, as nodemailer's own resolution does (a relay often listens on one family only).
  const first = answers.find((answer) => answer.family === 4) ?? answers[0];
  if (!first) throw transientFailure('delivery_connection_failed', { reason: `ENOTFOUND: ${host}` });
  return { address: first.address, servername: host };
}
