// The image, built for real: deploy/docker/Dockerfile with buildah (Debian's package, daemonless, no
// Docker engine; ./platform installs it), SERVICE=identity, then the image's config and a run of
// its command path (deploy/README.md, "The image, built with buildah"). Where no container registry
// answers, the base image is a stand-in built from Debian and the npm registry
// (deploy/tools/buildah-node-base.sh). Slow (minutes: a full workspace install and build inside
// the image) but bounded; its own buildah storage, the built image removed afterwards.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './support/topology.js';

const BUILDAH = process.env.BUILDAH ?? 'buildah';
const CACHE = process.env.AGENT_PLATFORM_CACHE_DIR ?? join(homedir(), '.cache', 'agent-platform');
const STORAGE = join(CACHE, 'buildah');
// vfs: works inside containers and sandboxes where overlay mounts are refused.
const STORAGE_ARGS = [
  '--root',
  join(STORAGE, 'storage'),
  '--runroot',
  join(STORAGE, 'run'),
  '--storage-driver',
  'vfs',
];
const IMAGE = `localhost/agent-platform/identity:test-${process.pid}`;
const BUILD_TIMEOUT_MS = 25 * 60_000;

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the test worker (a build takes minutes; a blocked worker misses
 *  vitest's own calls), killed after `timeout`. */
function run(command: string, args: string[], timeout: number, env = process.env): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

const buildah = (args: string[], timeout = 120_000) => run(BUILDAH, [...STORAGE_ARGS, ...args], timeout);

interface ImageConfig {
  Healthcheck?: { Test?: string[]; Interval?: number };
  User?: string;
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  Env?: string[];
}

describe('the image, built with buildah', () => {
  let config: ImageConfig;
  let container: string;

  beforeAll(
    async () => {
      mkdirSync(STORAGE, { recursive: true });
      const base = await run('bash', [join(REPO, 'deploy/tools/buildah-node-base.sh')], 10 * 60_000, {
        ...process.env,
        BUILDAH_ARGS: STORAGE_ARGS.join(' '),
      });
      if (base.status !== 0) throw new Error(`no base image (${base.status}):\n${base.stderr.slice(-4000)}`);
      const built = await buildah(
        [
          'build',
          '--isolation',
          'chroot',
          '--pull=never',
          '--layers=false',
          // Docker's image format: OCI's has no HEALTHCHECK, buildah would drop it.
          '--format',
          'docker',
          '-f',
          'deploy/docker/Dockerfile',
          '--ignorefile',
          'deploy/docker/Dockerfile.dockerignore',
          '--build-arg',
          'SERVICE=identity',
          '--build-arg',
          'PORT=50061',
          '-t',
          IMAGE,
          '.',
        ],
        BUILD_TIMEOUT_MS,
      );
      if (built.status !== 0)
        throw new Error(`buildah build failed (${built.status}):\n${built.stderr.slice(-4000)}`);
      const inspected = await buildah(['inspect', '--type', 'image', IMAGE]);
      config = (JSON.parse(inspected.stdout) as { Docker: { config: ImageConfig } }).Docker.config;
      container = (await buildah(['from', '--pull=never', IMAGE])).stdout.trim();
    },
    BUILD_TIMEOUT_MS + 11 * 60_000,
  );

  afterAll(async () => {
    if (container) await buildah(['rm', container]);
    await buildah(['rmi', '--force', IMAGE]);
  });

  /** Runs `argv` in the image as its user, in its working directory, as a container would. */
  const runInImage = (argv: string[]) =>
    buildah(['run', '--isolation', 'chroot', '--user', config.User ?? 'root', container, '--', ...argv]);

  it('runs as 1000:1000 from /app under tini, node dist/main.js by default', () => {
    expect(config.User).toBe('1000:1000');
    expect(config.WorkingDir).toBe('/app');
    expect(config.Entrypoint).toEqual(['/usr/bin/tini', '--']);
    expect(config.Cmd).toEqual(['node', 'dist/main.js']);
    expect(config.Env).toEqual(
      expect.arrayContaining(['PLATFORM_SERVICE=identity', 'GRPC_PORT=50061', 'TZ=UTC']),
    );
  });

  it('carries Node 24', async () => {
    const node = await runInImage(['node', '--version']);
    expect(node.stdout.trim()).toMatch(/^v24\./);
  });

  it('hands a Job’s args to the service through tini (node dist/main.js <command>)', async () => {
    const command = await runInImage([
      ...(config.Entrypoint ?? []),
      'node',
      'dist/main.js',
      'no-such-command',
    ]);
    expect(command.stderr).toMatch(/identity: unknown command "no-such-command" \(known: serve\b/);
    expect(command.status).toBe(64);
  });

  it('holds the service’s production dependencies only, read-only to its user', async () => {
    const listing = await runInImage([
      'sh',
      '-c',
      'test ! -w /app/dist/main.js && ls /app/node_modules/@platform',
    ]);
    expect(listing.status).toBe(0);
    expect(listing.stdout.split('\n')).toEqual(expect.arrayContaining(['runtime', 'db', 'config']));
    expect((await runInImage(['sh', '-c', 'test -e /app/node_modules/vitest'])).status).not.toBe(0);
  });
});
