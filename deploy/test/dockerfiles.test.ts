// Checks deploy/docker/Dockerfile (one recipe, the service as a build argument) for each service, and
// its build-context filter (Dockerfile.dockerignore); needs no Docker engine.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOCKERFILE,
  DOCKERIGNORE,
  buildArgsFor,
  buildStage,
  checkDockerfile,
  dockerIgnored,
  dockerServiceMap,
  renderDockerfile,
} from './support/dockerfiles.js';
import { read } from './support/parse.js';
import { DOCKER, SERVICES } from './support/topology.js';

describe('the Dockerfile', () => {
  it.each(SERVICES.map((s) => [s.name, s] as const))(
    'with SERVICE=%s builds that package, non-root, with its port, TZ and healthcheck',
    (_, s) => {
      expect(checkDockerfile(DOCKERFILE, s)).toEqual([]);
    },
  );

  it('is the only Dockerfile and the only build-context filter', () => {
    const files = readdirSync(DOCKER).filter((f) => /dockerfile|dockerignore/i.test(f));
    expect(files.sort()).toEqual(['Dockerfile', 'Dockerfile.dockerignore']);
  });

  it('maps exactly the seven services to their ports', () => {
    const map = dockerServiceMap(read(DOCKERFILE));
    expect(Object.fromEntries(map)).toEqual(Object.fromEntries(SERVICES.map((s) => [s.name, s.port])));
  });

  it('builds the workspace before it reads SERVICE (one cached build for all seven images)', () => {
    const stage = buildStage(read(DOCKERFILE));
    const argAt = stage.findIndex((i) => /^ARG\s+(SERVICE|PORT)\b/.test(i));
    const buildAt = stage.findIndex((i) => /^RUN\s+pnpm -r run build$/.test(i));
    const installAt = stage.findIndex((i) => /pnpm install --frozen-lockfile/.test(i));
    expect(buildAt).toBeGreaterThan(installAt);
    expect(installAt).toBeGreaterThan(0);
    expect(argAt).toBeGreaterThan(buildAt);
    expect(stage.slice(0, argAt).filter((i) => /\$\{?(SERVICE|PORT)\b/.test(i))).toEqual([]);
    // Rendered for two services, everything up to the ARG is word for word the same.
    const [gateway, identity] = SERVICES.map((s) =>
      renderDockerfile(read(DOCKERFILE), buildArgsFor(s)).slice(0, argAt + 1),
    );
    expect(identity).toEqual(gateway);
  });

  it('catch a wrong package filter or port, and a pair outside the service map', () => {
    const gateway = SERVICES[0]!;
    const identity = SERVICES[1]!;
    const out = checkDockerfile(DOCKERFILE, identity, buildArgsFor(gateway)).join('\n');
    expect(out).toMatch(/pnpm deploy --filter @platform\/identity/);
    expect(out).toMatch(/EXPOSE 50061/);
    expect(out).toMatch(/HEALTHCHECK running healthcheck.mjs grpc/);
    const wrongPort = checkDockerfile(DOCKERFILE, identity, { SERVICE: 'identity', PORT: '50062' });
    expect(wrongPort.join('\n')).toMatch(/refused by the Dockerfile's service map/);
    const noPort = checkDockerfile(DOCKERFILE, identity, { SERVICE: 'identity' }).join('\n');
    expect(noPort).toMatch(/does not EXPOSE 50061/);
    expect(noPort).toMatch(/does not default GRPC_PORT=50061/);
  });

  it('send the sources and the healthcheck script but no host artefacts or local data', () => {
    const patterns = read(DOCKERIGNORE).split('\n');
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
