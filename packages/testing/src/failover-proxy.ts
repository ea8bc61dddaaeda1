import net from 'node:net';

export interface FailoverProxy {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** For each connection accepted so far, the index of the target it went to (-1: none answered). */
  routed: number[];
  close(): Promise<void>;
}

/** Connects to the first target that accepts, in order; `undefined` when none does. */
async function connectFirst(targets: string[]): Promise<{ socket: net.Socket; index: number } | undefined> {
  for (const [index, target] of targets.entries()) {
    const [host, port] = target.split(':') as [string, string];
    const socket = await new Promise<net.Socket | undefined>((resolve) => {
      const attempt = net.connect(Number(port), host);
      attempt.once('connect', () => resolve(attempt));
      attempt.once('error', () => resolve(undefined));
    });
    if (socket) return { socket, index };
  }
  return undefined;
}

/**
 * A load balancer's simplest form for tests with several replicas: a TCP proxy that sends each NEW
 * connection to the first target (`host:port`) that accepts it, and keeps it there. A replica that
 * closed its listener (shutting down) refuses, so the next connection goes to the one after.
 */
export async function startFailoverProxy(targets: string[]): Promise<FailoverProxy> {
  const routed: number[] = [];
  const sockets = new Set<net.Socket>();
  const keep = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    keep(client);
    client.pause();
    const slot = routed.push(-1) - 1;
    void connectFirst(targets).then((upstream) => {
      if (!upstream || client.destroyed) {
        upstream?.socket.destroy();
        client.destroy();
        return;
      }
      routed[slot] = upstream.index;
      keep(upstream.socket);
      // Half-closes pass through, so a replica ending its response and connection ends the client's.
      client.pipe(upstream.socket);
      upstream.socket.pipe(client);
      // ...and a side that is cut (not ended) ends the other.
      upstream.socket.once('close', () => client.end());
      client.once('close', () => upstream.socket.end());
      client.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    routed,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
