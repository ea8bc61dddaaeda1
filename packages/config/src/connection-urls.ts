// The connection URL forms a platform team already has (deploy/README.md, "Connection URLs"):
// single- and multi-host Postgres URLs (libpq's `host1:port1,host2:port2` with
// `target_session_attrs`), MongoDB seed lists and `mongodb+srv://`. WHATWG `URL` (and zod's
// `.url()`) refuses a host list, so these are parsed here.

export interface PostgresHost {
  host: string;
  port: number;
}

/** libpq's `target_session_attrs` values this platform honours (docs: the first host that fits). */
export const TARGET_SESSION_ATTRS = ['any', 'read-write', 'primary'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface PostgresUrl {
  hosts: PostgresHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The same URL for one of its hosts, without `target_session_attrs` (a URL `pg` understands). */
  forHost(host: PostgresHost): string;
}

const POSTGRES_URL = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/s;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/;

/** Each `host[:port]` of a comma-separated list (default port `defaultPort`), or an error text. */
function parseHostList(list: string, defaultPort: number): PostgresHost[] | string {
  const hosts: PostgresHost[] = [];
  for (const item of list.split(',')) {
    const match = HOST_PORT.exec(item);
    const port = Number(match?.[2] ?? defaultPort);
    if (!match?.[1] || port < 1 || port > 65535) return `"${item}" is not host or host:port`;
    hosts.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return hosts;
}

/**
 * Parses a `postgres://` or `postgresql://` URL with one host or a comma-separated host list.
 * Returns an error text for anything else (no host, a bad port, an unknown
 * `target_session_attrs`). Credentials, database and the other query parameters are kept as written.
 */
export function parsePostgresUrl(url: string): PostgresUrl | string {
  const match = POSTGRES_URL.exec(url);
  if (!match) return 'must be a URL starting with postgres:// or postgresql://';
  const [, scheme = '', userinfo = '', hostList = '', rest = ''] = match;
  if (!hostList) return 'names no host (postgres://user:password@host:5432/database)';
  const hosts = parseHostList(hostList, 5432);
  if (typeof hosts === 'string') return hosts;
  const [path = '', query = ''] = splitQuery(rest);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs)) {
    return `target_session_attrs=${attrs} is not one of ${TARGET_SESSION_ATTRS.join(', ')}`;
  }
  params.delete('target_session_attrs');
  const kept = params.toString();
  const tail = `${path}${kept ? `?${kept}` : ''}`;
  return {
    hosts,
    targetSessionAttrs: attrs as TargetSessionAttrs,
    forHost: ({ host, port }) =>
      `${scheme}${userinfo}${host.includes(':') ? `[${host}]` : host}:${port}${tail}`,
  };
}

function splitQuery(rest: string): [string, string] {
  const withoutFragment = rest.split('#')[0] ?? '';
  const at = withoutFragment.indexOf('?');
  return at < 0 ? [withoutFragment, ''] : [withoutFragment.slice(0, at), withoutFragment.slice(at + 1)];
}

const MONGO_URL = /^(mongodb(?:\+srv)?):\/\/([^@/?#]*@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/s;

/**
 * Checks a MongoDB connection string the way the driver reads it: `mongodb://` with one host or a
 * seed list (`h1:27017,h2:27017`), or `mongodb+srv://` with exactly one host name and no port (the
 * driver looks up `_mongodb._tcp.<name>` SRV and TXT records). Returns an error text, or nothing.
 */
export function mongoUrlProblem(url: string): string | undefined {
  const match = MONGO_URL.exec(url);
  if (!match) return 'must be a URL starting with mongodb:// or mongodb+srv://';
  const [, scheme, , hostList = ''] = match;
  if (!hostList) return 'names no host (mongodb://host:27017/database)';
  if (scheme === 'mongodb+srv') {
    if (hostList.includes(',') || hostList.includes(':')) {
      return 'mongodb+srv:// takes one host name without a port (the SRV record lists the servers)';
    }
    return undefined;
  }
  const hosts = parseHostList(hostList, 27017);
  return typeof hosts === 'string' ? hosts : undefined;
}
