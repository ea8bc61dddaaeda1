import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PUBLIC_PEM =
  '-----BEGIN PUBLIC KEY-----\\nMCowBQYDK2VwAyEAW/gzeaSaNNq1RLUMzRZNa0pQEmVEvjwdXAfrgp4v4ZQ=\\n-----END PUBLIC KEY-----';
const root = fileURLToPath(new URL('../../..', import.meta.url));

function run(service: string, env: Record<string, string | undefined>) {
  const main = `${root}services/${service}/dist/main.js`;
  expect(existsSync(main), `${main} is built (pnpm build)`).toBe(true);
  return spawnSync(process.execPath, [main], { env, encoding: 'utf8', timeout: 20_000 });
}

// Each case starts node processes (2–4 s on a busy machine).
describe('a service started with a bad environment', { timeout: 30_000 }, () => {
  it.each([
    [
      'identity',
      [
        'DATABASE_URL',
        'SECRET_KEY',
        'TASK_SEAL_KEY',
        'PRINCIPAL_SIGNING_PUBLIC_KEY',
        // the public key of every caller its internal methods declare
        'SERVICE_PUBLIC_KEY_GATEWAY',
        'SERVICE_PUBLIC_KEY_APIKEYS',
        'SERVICE_PUBLIC_KEY_NOTIFICATIONS',
        'SERVICE_PUBLIC_KEY_MODELS',
        'SERVICE_PUBLIC_KEY_WORKFLOWS',
      ],
    ],
    // notifications opens identity's sealed mails with TASK_SEAL_KEY, never SECRET_KEY.
    [
      'notifications',
      ['MONGO_URL', 'TASK_SEAL_KEY', 'PRINCIPAL_SIGNING_PUBLIC_KEY', 'SERVICE_SIGNING_PRIVATE_KEY'],
    ],
    // models seals provider API keys at rest (docs/models.md).
    [
      'models',
      [
        'DATABASE_URL',
        'SECRET_KEY',
        'PRINCIPAL_SIGNING_PUBLIC_KEY',
        'SERVICE_SIGNING_PRIVATE_KEY',
        'SERVICE_PUBLIC_KEY_AGENT_RUNTIME',
        'SERVICE_PUBLIC_KEY_WORKFLOWS',
        'SERVICE_PUBLIC_KEY_OBSERVABILITY',
      ],
    ],
    [
      'gateway',
      [
        'SECRET_KEY',
        'PRINCIPAL_SIGNING_PRIVATE_KEY',
        'SERVICE_SIGNING_PRIVATE_KEY',
        'IDENTITY_GRPC_ADDR',
        'OBSERVABILITY_GRPC_ADDR',
      ],
    ],
  ])('%s exits 78 naming every missing variable', (service, variables) => {
    const result = run(service, { PATH: process.env.PATH, GRPC_PORT: 'not-a-port' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`${service}: invalid configuration`);
    for (const variable of variables) expect(result.stderr).toContain(`${variable} is missing`);
    if (service !== 'gateway') expect(result.stderr).toContain('GRPC_PORT is invalid');
  });

  // SECRET_KEY (JWT signing, at-rest keys) goes to the gateway, identity and models (its own value)
  // only; TASK_SEAL_KEY (sealed task args) to identity and notifications only.
  it.each([
    ['apikeys', false],
    ['notifications', true],
    ['workflows', false],
    ['observability', false],
    ['models', false],
  ])('%s does not ask for the keys outside its audience', (service, sealsTasks) => {
    const result = run(service, { PATH: process.env.PATH });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('SERVICE_SIGNING_PRIVATE_KEY is missing');
    if (service !== 'models') expect(result.stderr).not.toMatch(/(^|[^_])SECRET_KEY is/m);
    expect(result.stderr.includes('TASK_SEAL_KEY is missing')).toBe(sealsTasks);
    expect(result.stderr).not.toContain('PRINCIPAL_SIGNING_PRIVATE_KEY');
  });

  it('explains a trust key of the wrong kind or too short', () => {
    const result = run('models', {
      PATH: process.env.PATH,
      PRINCIPAL_SIGNING_PUBLIC_KEY: 'not a pem',
      // A public key where the service's own private key belongs; three keys for one caller.
      SERVICE_SIGNING_PRIVATE_KEY: PUBLIC_PEM,
      SERVICE_PUBLIC_KEY_WORKFLOWS: [PUBLIC_PEM, PUBLIC_PEM, PUBLIC_PEM].join(','),
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toMatch(
      /PRINCIPAL_SIGNING_PUBLIC_KEY is invalid: .*Ed25519 public key in SPKI PEM/,
    );
    expect(result.stderr).toMatch(
      /SERVICE_SIGNING_PRIVATE_KEY is invalid: .*Ed25519 private key in PKCS8 PEM/,
    );
    expect(result.stderr).toMatch(/SERVICE_PUBLIC_KEY_WORKFLOWS is invalid: .*one public key, or 2/);
    const gateway = run('gateway', {
      PATH: process.env.PATH,
      // An Ed25519 public key where the private key belongs.
      PRINCIPAL_SIGNING_PRIVATE_KEY: PUBLIC_PEM,
    });
    expect(gateway.stderr).toMatch(
      /PRINCIPAL_SIGNING_PRIVATE_KEY is invalid: .*Ed25519 private key in PKCS8 PEM/,
    );
  });
});

describe('a service given its secrets as files (<NAME>_FILE, mounted secrets)', { timeout: 30_000 }, () => {
  it('reads them, and names a file it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-secrets-'));
    try {
      const keyFile = join(dir, 'principal-public-key');
      writeFileSync(keyFile, `${PUBLIC_PEM.replace(/\\n/g, '\n')}\n`);
      const result = run('workflows', {
        PATH: process.env.PATH,
        PRINCIPAL_SIGNING_PUBLIC_KEY_FILE: keyFile,
        DATABASE_URL_FILE: join(dir, 'no-such-file'),
      });
      expect(result.status).toBe(78);
      // The key came from its file: it is neither missing nor invalid.
      expect(result.stderr).not.toContain('PRINCIPAL_SIGNING_PUBLIC_KEY is');
      expect(result.stderr).toContain(
        `DATABASE_URL_FILE names ${join(dir, 'no-such-file')}, which cannot be read (ENOENT)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
