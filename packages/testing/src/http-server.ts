import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningHttp {
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on a free loopback port; `close` ends keep-alive sockets too. */
export async function listen(app: (req: never, res: never) => void): Promise<RunningHttp> {
  const { createServer } = await import('node:http');
  const server: Server = createServer(app as never);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
