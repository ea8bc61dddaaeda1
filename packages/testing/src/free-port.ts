import { createServer, type Server } from 'node:net';

/**
 * `count` distinct loopback TCP ports that were free a moment ago: all bound at once, then
 * released. Taken one after another, two free ports may be the same one (the kernel may hand a
 * released port out again), which made a service's metrics port collide with its gRPC port.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** A loopback TCP port that was free a moment ago (bound once, then released). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}
