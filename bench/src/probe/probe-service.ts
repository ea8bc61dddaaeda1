import { conformanceV1 } from '@platform/contracts';
import { createPool, runMigrations, type Pool } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { createServerTrust, registration, startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { fileURLToPath } from 'node:url';
import { DEV_SERVICES, servicePublicKey, stackEnv } from '@platform/testing';

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
const UNIQUE_VIOLATION = '23505';

interface NoteRow {
  id: string;
  name: string;
  body: string;
  created_at: Date;
}

const toNote = (row: NoteRow): conformanceV1.Note => ({
  id: row.id,
  name: row.name,
  body: row.body,
  created_at: row.created_at.toISOString(),
});

/** The probe's use cases over Postgres, raising the catalog's business errors. */
function probeHandlers(pool: Pool) {
  return registration('platform.conformance.v1.ProbeService', conformanceV1.ProbeServiceService, {
    async putNote(request) {
      try {
        const { rows } = await pool.query<NoteRow>(
          'INSERT INTO probe_notes (name, body) VALUES ($1, $2) RETURNING *',
          [request.name, request.body],
        );
        return toNote(rows[0]!);
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
          throw new BusinessError(ErrorCode.DUPLICATE_NAME, { data: { name: request.name } });
        }
        throw error;
      }
    },
    async getNote(request) {
      const { rows } = await pool.query<NoteRow>('SELECT * FROM probe_notes WHERE id = $1', [request.id]);
      if (!rows[0]) throw new BusinessError(ErrorCode.NOT_FOUND);
      return toNote(rows[0]);
    },
    async echo(request, context) {
      if (request.delay_ms > 0) await new Promise((resolve) => setTimeout(resolve, request.delay_ms));
      return {
        text: request.text,
        request_id: context.requestId,
        user_id: request.include_principal ? (context.principal?.user_id ?? '') : '',
        locale: context.locale,
      };
    },
  });
}

export interface RunningProbe {
  address: string;
  pool: Pool;
  stop(): Promise<void>;
}

/** Starts the probe gRPC service on a free port over the given database (migrated first). */
export async function startProbeService(
  databaseUrl: string,
  logger: Logger,
  port = 0,
): Promise<RunningProbe> {
  const pool = createPool(databaseUrl, { max: 20, applicationName: 'probe', logger });
  await runMigrations(pool, MIGRATIONS, { logger, migrationsTable: 'probe_migrations' });
  const server: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port,
    logger,
    services: [probeHandlers(pool)],
    // Callers sign for the audience `probe` with the stack's dev keys (docs/security.md).
    trust: createServerTrust({
      audience: 'probe',
      principalPublicKeys: stackEnv.principalSigningPublicKey,
      callerKeys: Object.fromEntries(DEV_SERVICES.map((service) => [service, servicePublicKey(service)])),
    }),
  });
  return {
    address: `127.0.0.1:${server.port}`,
    pool,
    async stop() {
      await server.shutdown(2_000);
      await pool.end();
    },
  };
}
