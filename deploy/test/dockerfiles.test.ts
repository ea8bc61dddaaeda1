// Checks the seven Dockerfiles under deploy/docker and their build-context filter (.dockerignore);
// needs no Docker engine.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStage, checkDockerfile, dockerIgnored } from './support/dockerfiles.js';
import { read } from './support/parse.js';
import { DOCKER, SERVICES } from './support/topology.js';

describe('Dockerfiles', () => {
  it.each(SERVICES.map((s) => [s.name, s] as const))(
    '%s builds its package, non-root, with a healthcheck',
    (_, s) => {
      expect(checkDockerfile(join(DOCKER, `Dockerfile.${s.name}`), s)).toEqual([]);
    },
  );

  it('share one word-for-word build stage (built once, cached for all seven) up to pnpm deploy', () => {
    const stages = SERVICES.map((s) =>
      buildStage(read(join(DOCKER, `Dockerfile.${s.name}`))).filter((i) => !i.includes('pnpm deploy')),
    );
    expect(stages[0]?.length).toBeGreaterThan(3);
    for (const stage of stages) expect(stage).toEqual(stages[0]);
  });

  it('catch a wrong package filter or port', () => {
    const gateway = SERVICES[0]!;
    const asIdentity = { ...gateway, name: 'identity', port: 50061, protocol: 'grpc' as const };
    const out = checkDockerfile(join(DOCKER, 'Dockerfile.gateway'), asIdentity).join('\n');
    expect(out).toMatch(/pnpm deploy --filter @platform\/identity/);
    expect(out).toMatch(/EXPOSE 50061/);
  });

  it('send the sources and the healthcheck script but no host artefacts or local data', () => {
    const patterns = read(join(DOCKER, '.dockerignore')).split('\n');
    const sent = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'tsconfig.base.json',
      'proto/platform/identity/v1/identity.proto',
      'packages/errors/src/index.ts',
      'packages/errors/package.json',
      'services/gateway/src/main.ts',
      'services/gateway/tsconfig.json',
      'deploy/docker/healthcheck.mjs',
    ];
    const dropped = [
      'node_modules/yaml/index.js',
      'services/gateway/node_modules/express/index.js',
      'services/gateway/dist/main.js',
      'packages/errors/tsconfig.tsbuildinfo',
      'packages/contracts/src/gen/platform/identity/v1/identity.ts',
      '.stack/postgres/PG_VERSION',
      '.git/HEAD',
      'deploy/local/stack.sh',
      'deploy/docker-compose.yml',
    ];
    expect(sent.filter((p) => dockerIgnored(patterns, p))).toEqual([]);
    expect(dropped.filter((p) => !dockerIgnored(patterns, p))).toEqual([]);
  });
});
