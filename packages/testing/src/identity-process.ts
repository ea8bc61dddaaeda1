import { randomUUID } from 'node:crypto';
import { TokenService } from '@platform/auth';
import { createPool, type Pool } from '@platform/db';
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';
import { stackEnv } from './stack-env.js';

export interface IdentityUser {
  id: string;
  username: string;
  /** A 1-hour access token, as identity's login would issue it. */
  token: string;
}

export interface IdentityUserOptions {
  /** Role names (default `['User']`; `[]` gives no permissions at all). */
  roles?: string[];
  superuser?: boolean;
  isActive?: boolean;
}

export interface IdentityProcess extends ServiceProcess {
  /** A pool on identity's database, for setting up users and changing them behind its back. */
  pool: Pool;
  /** An approved, verified user inserted directly (how users sign up is identity's own test). */
  createUser(options?: IdentityUserOptions): Promise<IdentityUser>;
}

/**
 * The identity service for another service's tests (principals for the gateway, user names):
 * the built service as a child process (see `startServiceProcess`), plus direct user set-up.
 */
export async function startIdentityProcess(options: ServiceProcessOptions = {}): Promise<IdentityProcess> {
  const service = await startServiceProcess('identity', options);
  const pool = createPool(service.database.url, { max: 4, applicationName: 'identity-test-setup' });
  const tokens = new TokenService(options.env?.SECRET_KEY ?? stackEnv.secretKey);
  return {
    ...service,
    pool,
    async createUser(user = {}) {
      const username = `u_${randomUUID().slice(0, 8)}`;
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO users (username, email, password_hash, is_superuser, is_active, approval_status, email_verified)
         VALUES ($1, $2, 'not-a-real-hash', $3, $4, 'approved', true) RETURNING id`,
        [username, `${username}@example.test`, user.superuser ?? false, user.isActive ?? true],
      );
      const id = rows[0]!.id;
      await pool.query(
        'INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2::text[])',
        [id, user.roles ?? ['User']],
      );
      const issued = await tokens.issue(id, 'access', 3600);
      return { id, username, token: issued.token };
    },
    async stop() {
      await pool.end();
      await service.stop();
    },
  };
}
