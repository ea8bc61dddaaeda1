// deploy/tools/install-node.sh, which ./platform runs first (ensure_toolchain): Node 24 and pnpm from
// the npm registry when the machine's node is older, the machine's own when it is new enough, and
// a download that does not match its pinned integrity refused. Integration project: it may download
// Node (about 50 MB) the first time on a machine.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './support/topology.js';

const SCRIPT = join(REPO, 'deploy/tools/install-node.sh');
const pinned = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(readFileSync(SCRIPT, 'utf8'))?.[1];
const NODE_VERSION = pinned('NODE_VERSION');
const PNPM_VERSION = pinned('PNPM_VERSION');
const scratch = mkdtempSync(join(tmpdir(), 'install-node-'));

/** A directory whose `node` claims `version` (and does nothing else), to put first on PATH. */
function fakeNode(version: string): string {
  const dir = mkdtempSync(join(scratch, 'bin-'));
  writeFileSync(join(dir, 'node'), `#!/bin/sh\necho v${version}\n`);
  chmodSync(join(dir, 'node'), 0o755);
  return dir;
}

function run(command: string, args: string[], env: Record<string, string>, timeout = 180_000) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout,
    env: { HOME: process.env.HOME ?? '', ...env },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const basePath = process.env.PATH ?? '/usr/bin:/bin';

describe('install-node.sh (./platform ensure_toolchain)', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('pins Node 24 and pnpm 9', () => {
    expect(NODE_VERSION).toMatch(/^24\.\d+\.\d+$/);
    expect(PNPM_VERSION).toMatch(/^9\.\d+\.\d+$/);
  });

  it('installs Node 24 and pnpm beside it when the machine’s node is older, pnpm running on it', () => {
    const old = fakeNode('20.11.0');
    const installed = run('bash', [SCRIPT], { PATH: `${old}:${basePath}` });
    expect(installed.status, installed.stderr).toBe(0);
    const bin = installed.stdout;
    expect(bin).toMatch(new RegExp(`node-${NODE_VERSION?.replace(/\./g, '\\.')}/bin$`));
    expect(run(join(bin, 'node'), ['--version'], { PATH: basePath }).stdout).toBe(`v${NODE_VERSION}`);
    // The old node still first on PATH: pnpm runs on the node beside it all the same.
    const pnpm = run(join(bin, 'pnpm'), ['--version'], { PATH: `${old}:${basePath}` });
    expect(pnpm.stdout).toBe(PNPM_VERSION);
    // What ./platform then runs, its PATH led by that folder.
    const onPath = run('bash', ['-c', 'node --version && pnpm --version'], {
      PATH: `${bin}:${old}:${basePath}`,
    });
    expect(onPath.stdout.split('\n')).toEqual([`v${NODE_VERSION}`, PNPM_VERSION]);
  });

  it('keeps the machine’s node when it is 24 or newer', () => {
    const current = fakeNode('25.1.0');
    const result = run('bash', [SCRIPT], { PATH: `${current}:${basePath}` });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('refuses a download that does not match the pinned integrity', () => {
    const tampered = join(scratch, 'install-node.sh');
    writeFileSync(
      tampered,
      readFileSync(SCRIPT, 'utf8').replace(
        /NODE_INTEGRITY=sha512-\S+/g,
        'NODE_INTEGRITY=sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
      ),
    );
    const cache = mkdtempSync(join(scratch, 'cache-'));
    const result = run('bash', [tampered], {
      PATH: `${fakeNode('20.11.0')}:${basePath}`,
      AGENT_PLATFORM_CACHE_DIR: cache,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/does not match its pinned integrity/);
    expect(result.stdout).toBe('');
  });
});
