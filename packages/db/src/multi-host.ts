// Multi-host Postgres URLs (libpq's form: `postgres://u:p@h1:5432,h2:5432/db?target_session_attrs=
// read-write`). node-postgres connects to one host only, so the host is chosen here, as libpq does:
// the hosts in the order written, the first that accepts a connection and has the session kind asked
// for (`read-write`: `transaction_read_only` is off; `primary`: not in recovery; `any`: connects).
// The choice is kept for later connections and dropped when a connection to it fails or one of its
// open connections ends unasked, so the next connection probes the list again. See deploy/README.md, "Connection URLs".
import pg from 'pg';
import { parsePostgresUrl, type PostgresHost, type PostgresUrl } from '@platform/config';

/** The parsed URL when it names more than one host; single-host URLs go to `pg` unchanged. */
export function multiHostUrl(url: string): PostgresUrl | undefined {
  const parsed = parsePostgresUrl(url);
  return typeof parsed === 'string' || parsed.hosts.length < 2 ? undefined : parsed;
}

const describe = ({ host, port }: PostgresHost): string => `${host}:${port}`;

/** Picks and remembers the host of a multi-host URL for every connection a pool or client opens. */
export class HostSelector {
  #chosen: PostgresHost | undefined;
  #probing: Promise<PostgresHost> | undefined;

  constructor(
    readonly url: PostgresUrl,
    private readonly connectTimeoutMs: number,
  ) {}

  /** The remembered host, or the first host of the list that fits (probed one after another). */
  pick(): Promise<PostgresHost> {
    if (this.#chosen) return Promise.resolve(this.#chosen);
    this.#probing ??= this.#probe().finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  /** A connection to `host` failed or had the wrong session kind: probe the list again next time. */
  forget(host: PostgresHost): void {
    if (this.#chosen === host) this.#chosen = undefined;
  }

  async #probe(): Promise<PostgresHost> {
    const failures: string[] = [];
    for (const host of this.url.hosts) {
      try {
        await this.#check(host);
        this.#chosen = host;
        return host;
      } catch (error) {
        failures.push(`${describe(host)}: ${(error as Error).message}`);
      }
    }
    throw new Error(
      `no Postgres host accepted a ${this.url.targetSessionAttrs} session (${failures.join('; ')})`,
    );
  }

  async #check(host: PostgresHost): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url.forHost(host),
      connectionTimeoutMillis: this.connectTimeoutMs,
    });
    client.on('error', () => undefined); // a probe's late socket error is not the caller's
    await client.connect();
    try {
      await assertSessionKind(client, this.url);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** Throws when the connected session is not of the kind `target_session_attrs` asks for. */
async function assertSessionKind(client: pg.ClientBase, url: PostgresUrl): Promise<void> {
  if (url.targetSessionAttrs === 'read-write') {
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    if (rows[0]?.transaction_read_only !== 'off') throw new Error('the server is read-only');
  } else if (url.targetSessionAttrs === 'primary') {
    const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    if (rows[0]?.standby !== false) throw new Error('the server is a standby');
  }
}

type ConnectCallback = (err: Error | null, client?: pg.Client) => void;

/**
 * A `pg.Client` class (for `pg.Pool`'s `Client` option and one-off clients) whose connections go to
 * the host `selector` picks. Every new connection checks its session kind again, so a primary that
 * became a standby is noticed at the next connection.
 */
export function failoverClient(selector: HostSelector): typeof pg.Client {
  class FailoverClient extends pg.Client {
    #endRequested = false;

    override end(): Promise<void>;
    override end(callback: (err: Error) => void): void;
    override end(callback?: (err: Error) => void): Promise<void> | void {
      this.#endRequested = true;
      return callback ? super.end(callback) : super.end();
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connected = this.#connectToChosenHost();
      if (!callback) return connected;
      connected.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
    }

    async #connectToChosenHost(): Promise<pg.Client> {
      const host = await selector.pick();
      // Read by pg when it opens the socket (and for TLS's server name), not before.
      this.host = host.host;
      this.port = host.port;
      let connected = false;
      try {
        await super.connect();
        connected = true;
        await assertSessionKind(this, selector.url);
        // The host went away under an open connection: the next connection probes the list again
        // instead of trying the dead host first. Ahead of pg's own listeners: they hand the drop to
        // pg-pool, which ends the client at once, and then every end would look requested.
        const lost = () => {
          if (!this.#endRequested) selector.forget(host);
        };
        this.connection.prependOnceListener('end', lost).prependOnceListener('error', lost);
        return this;
      } catch (error) {
        selector.forget(host);
        // pg-pool drops a client whose connect failed without ending it
        if (connected) this.end().catch(() => undefined);
        throw error;
      }
    }
  }
  return FailoverClient;
}

/** A client for `url` (one host, or the host a fresh selector picks); not yet connected. */
export function newClient(url: string, connectTimeoutMs = 5000): pg.Client {
  const multi = multiHostUrl(url);
  if (!multi) return new pg.Client({ connectionString: url });
  const Client = failoverClient(new HostSelector(multi, connectTimeoutMs));
  return new Client({ connectionString: multi.forHost(multi.hosts[0]!) });
}
