// Points a process's name resolution for one test domain at a DNS server a test runs
// (startDnsServer): SRV and TXT questions (dns.promises.resolveSrv/resolveTxt, what the MongoDB
// driver asks for mongodb+srv://) through dns.setServers, and the A lookups its sockets make for
// names under the domain, which Node resolves with getaddrinfo and so never through a DNS server set
// at run time. Other names resolve as before. In-process for a test; in a child process (a service
// under test) through the preload ./dns-preload.js. Tests only: production resolves through the
// pod's resolver.
import dns from 'node:dns';
import { fileURLToPath } from 'node:url';

/** The preload's built path: `NODE_OPTIONS=--import=${DNS_PRELOAD}` with TEST_DNS_SERVER/DOMAIN. */
export const DNS_PRELOAD = fileURLToPath(new URL('./dns-preload.js', import.meta.url));

type LookupCallback = (error: NodeJS.ErrnoException | null, address?: unknown, family?: number) => void;

/** Applies the test resolver; returns the undo. */
export function useTestDns(serverAddress: string, domain: string): () => void {
  const servers = dns.getServers();
  const lookup = dns.lookup;
  const resolver = new dns.Resolver();
  resolver.setServers([serverAddress]);
  dns.setServers([serverAddress]);
  const testLookup = (hostname: string, options: unknown, callback?: LookupCallback): void => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    if (!hostname.endsWith(`.${domain}`)) {
      (lookup as (...args: unknown[]) => void)(hostname, options, callback);
      return;
    }
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    resolver.resolve4(hostname, (error, addresses) => {
      if (error) return done(error);
      if (all)
        return done(
          null,
          addresses.map((address) => ({ address, family: 4 })),
        );
      return done(null, addresses[0], 4);
    });
  };
  (dns as { lookup: unknown }).lookup = testLookup;
  return () => {
    (dns as { lookup: unknown }).lookup = lookup;
    dns.setServers(servers);
  };
}
