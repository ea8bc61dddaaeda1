import { TokenService } from '@platform/auth';
import { createPool, type Pool } from '@platform/db';
import { insertIdentityUser, type IdentityUser, type IdentityUserOptions } from './identity-users.js';
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';
import { stackEnv } from './stack-env.js';

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
    createUser: (user) => insertIdentityUser(pool, tokens, user),
    async stop() {
      await pool.end();
      await service.stop();
    },
  };
}
