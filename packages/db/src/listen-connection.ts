import type { Pool, PoolClient } from './pool.js';
import { sessionPoolOf } from './session-pool.js';

/** A dedicated connection holding one LISTEN (see openListenConnection). */
export interface ListenConnection {
  /** False once the connection was lost or closed: open a new one. */
  readonly alive: boolean;
  close(): Promise<void>;
}

export interface ListenHandlers {
  onNotification: (payload: string | undefined) => void;
  /** The connection dropped (Postgres restarted, the backend terminated); it is released already. */
  onLost: (error: Error) => void;
}

/**
 * LISTENs on `channel` on a connection of its own from the pool (its session pool when one is
 * attached: a LISTEN needs a real session, see session-pool.ts). The connection is released
 * exactly once, on its first error or on `close()`: a dropped connection can emit 'error' more than
 * once, also while LISTEN is still running, and a second release throws inside pg-pool. The error
 * handler stays attached after the release, because an 'error' event with no listener would crash
 * the process. `channel` must be a trusted identifier (it is not quoted).
 */
export async function openListenConnection(
  pool: Pool,
  channel: string,
  handlers: ListenHandlers,
): Promise<ListenConnection> {
  const client: PoolClient = await sessionPoolOf(pool).connect();
  let released = false;
  // destroyed, never returned to the pool: the LISTEN (or a broken socket) must not be reused
  const release = () => {
    if (released) return;
    released = true;
    client.release(true);
  };
  client.on('notification', (message) => {
    if (!released) handlers.onNotification(message.payload);
  });
  client.on('error', (error) => {
    if (released) return;
    release();
    handlers.onLost(error);
  });
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    release();
    throw error;
  }
  return {
    get alive() {
      return !released;
    },
    close: () => {
      release();
      return Promise.resolve();
    },
  };
}
