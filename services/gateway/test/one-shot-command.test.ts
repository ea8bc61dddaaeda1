import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The gateway's image has no one-shot commands: `node dist/main.js migrate` (a Job pointed at the
// wrong image) exits 64 before reading any configuration, instead of starting to serve.
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('gateway one-shot commands', () => {
  it('an unknown command exits 64 and names the known ones, with no configuration at all', () => {
    const run = spawnSync(process.execPath, [MAIN, 'migrate'], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('gateway: unknown command "migrate" (known: serve)');
  });
});
