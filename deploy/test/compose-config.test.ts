// Runs Docker Compose v2's own `docker compose config` on deploy/docker-compose.yml (no Docker engine
// needed): the file must be valid for Compose's schema and interpolate with the variables
// dev-secrets.mjs writes, and must refuse to start without them. compose.test.ts checks the
// topology; this checks that Compose itself accepts what it describes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCompose } from './support/compose.js';
import { clone } from './support/parse.js';
import { DEPLOY, DOCKER, REPO } from './support/topology.js';

let composeBin = '';
let envFile = '';
const work = mkdtempSync(join(tmpdir(), 'compose-config-'));

function composeConfig(file: string, args: string[] = [], withEnv = true) {
  // Only PATH and HOME from this process: a variable set in the test's own environment must not
  // stand in for one the .env file should provide.
  return spawnSync(
    composeBin,
    [
      '-f',
      file,
      '--project-directory',
      DEPLOY,
      ...(withEnv ? ['--env-file', envFile] : []),
      'config',
      ...args,
    ],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    },
  );
}

describe('docker compose config', () => {
  beforeAll(() => {
    const install = spawnSync('bash', [join(REPO, 'deploy', 'tools', 'install-compose.sh')], {
      encoding: 'utf8',
      timeout: 1_800_000,
    });
    if (install.status !== 0) throw new Error(`install-compose.sh failed: ${install.stderr}`);
    composeBin = install.stdout.trim();
    const secrets = spawnSync(process.execPath, [join(DOCKER, 'dev-secrets.mjs')], { encoding: 'utf8' });
    envFile = join(work, '.env');
    writeFileSync(envFile, secrets.stdout);
  }, 1_800_000);

  it('accepts the compose file with the variables dev-secrets.mjs writes', () => {
    const out = composeConfig(join(DEPLOY, 'docker-compose.yml'), ['--quiet']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });

  it('resolves every service of the file, with no required variable left empty', () => {
    const out = composeConfig(join(DEPLOY, 'docker-compose.yml'), ['--format', 'json']);
    expect(out.status).toBe(0);
    const resolved = JSON.parse(out.stdout) as {
      services: Record<string, { environment?: Record<string, string | null> }>;
    };
    expect(Object.keys(resolved.services).sort()).toEqual(Object.keys(loadCompose().services ?? {}).sort());
    for (const [name, service] of Object.entries(resolved.services)) {
      const unset = Object.entries(service.environment ?? {}).filter(
        ([key, value]) => /SECRET|KEY|PASSWORD/.test(key) && !/SASL/.test(key) && !value,
      );
      expect(unset, `${name} has empty secrets`).toEqual([]);
    }
  });

  it('refuses to run without the secrets, naming the missing variable', () => {
    const out = composeConfig(join(DEPLOY, 'docker-compose.yml'), ['--quiet'], false);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/required variable \w+ is missing a value/);
  });

  it('catches a key Compose does not know', () => {
    const broken = clone(loadCompose()) as { services: Record<string, Record<string, unknown>> };
    broken.services.gateway!.enviroment = { X: '1' };
    const file = join(work, 'broken.yml');
    writeFileSync(file, stringify(broken));
    const out = composeConfig(file, ['--quiet']);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/enviroment/);
  });
});
