import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP endpoint for http_request nodes that holds every request until `release()`: a run
 * parked in it occupies its worker slot for as long as the test wants. Counts the requests held
 * at once per `x-user` header (the node sends the run's starter), and the most ever held.
 */
export interface GateSink {
  origin: string;
  /** Requests held now. */
  held(): number;
  /** The most requests ever held at once, per `x-user` value. */
  peakByUser: Map<string, number>;
  release(): void;
  close(): Promise<void>;
}

export async function startGateSink(): Promise<GateSink> {
  let open = true;
  const waiting: Array<() => void> = [];
  const current = new Map<string, number>();
  const peakByUser = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    const user = String(req.headers['x-user'] ?? '');
    const now = (current.get(user) ?? 0) + 1;
    current.set(user, now);
    peakByUser.set(user, Math.max(peakByUser.get(user) ?? 0, now));
    const answer = () => {
      current.set(user, (current.get(user) ?? 1) - 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    if (open) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open = false;
  const release = () => {
    for (const answer of waiting.splice(0)) answer();
  };
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    peakByUser,
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
