import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('a service started with a bad environment', () => {
  it.each([
    ['identity', ['DATABASE_URL']],
    ['notifications', ['MONGO_URL']],
    ['gateway', ['SECRET_KEY', 'IDENTITY_GRPC_ADDR', 'OBSERVABILITY_GRPC_ADDR']],
  ])('%s exits 78 naming every missing variable', (service, variables) => {
    const main = `${root}services/${service}/dist/main.js`;
    expect(existsSync(main), `${main} is built (pnpm build)`).toBe(true);
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, GRPC_PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`${service}: invalid configuration`);
    for (const variable of variables) expect(result.stderr).toContain(`${variable} is missing`);
    if (service !== 'gateway') expect(result.stderr).toContain('GRPC_PORT is invalid');
  });
});
