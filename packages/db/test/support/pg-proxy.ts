// A TCP proxy in front of the local Postgres: a second "host" for the multi-host tests. With
// `readOnly` it adds `default_transaction_read_only=on` to each session's startup message, so the
// real server behaves as a read-only host (a standby, as far as target_session_attrs=read-write can
// tell) would.
import { createServer, connect, type Server, type Socket } from 'node:net';

const PROTOCOL_3 = 196608;

export interface PgProxy {
  port: number;
  /** Sessions this proxy carried so far. */
  readonly sessions: number;
  /** Stops listening and cuts every open session (the host is gone). */
  kill(): Promise<void>;
}

/** The startup message with `default_transaction_read_only=on` added (other messages unchanged). */
function readOnlyStartup(message: Buffer): Buffer {
  if (message.length < 8 || message.readInt32BE(4) !== PROTOCOL_3) return message;
  const extra = Buffer.from('default_transaction_read_only\0on\0');
  // the parameter list ends with one more NUL: insert before it
  const body = Buffer.concat([message.subarray(4, message.length - 1), extra, Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([length, body]);
}

export async function startPgProxy(
  target: { host: string; port: number },
  readOnly = false,
): Promise<PgProxy> {
  const open = new Set<Socket>();
  let sessions = 0;
  const server: Server = createServer((client) => {
    sessions++;
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
    let pending = Buffer.alloc(0);
    const first = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
      client.off('data', first);
      const length = pending.readInt32BE(0);
      const message = pending.subarray(0, length);
      upstream.write(readOnly ? readOnlyStartup(message) : message);
      upstream.write(pending.subarray(length));
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on('data', first);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    get sessions() {
      return sessions;
    },
    kill: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
