// Checks deploy/docker-compose.yml (and, through it, the Dockerfiles it builds) against the
// platform's topology; needs no Docker engine. The "catches" tests break a copy of the real file on
// purpose to prove the check bites.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCompose,
  composeEnv,
  loadCompose,
  type ComposeFile,
  type ComposeService,
} from './support/compose.js';
import { clone, read } from './support/parse.js';
import { DOCKER, SERVICES } from './support/topology.js';

describe('docker compose', () => {
  it('has the backing servers, the seven services and only the gateway published', () => {
    expect(checkCompose(loadCompose())).toEqual([]);
  });

  it('creates every service database and pg_stat_statements in the Postgres init script', () => {
    const dir = join(DOCKER, 'postgres-init');
    const sql = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => read(join(dir, f)))
      .join('\n');
    expect(sql).toMatch(/CREATE EXTENSION IF NOT EXISTS pg_stat_statements/i);
    const compose = loadCompose();
    const databases = SERVICES.flatMap((s) => {
      const url = composeEnv(compose.services?.[s.name] ?? {}).DATABASE_URL;
      return url ? [url.slice(url.lastIndexOf('/') + 1)] : [];
    });
    expect(databases.sort()).toEqual(['apikeys', 'identity', 'models', 'observability', 'workflows']);
    for (const db of databases) expect(sql).toMatch(new RegExp(`CREATE DATABASE ${db};`, 'i'));
  });

  describe('catches', () => {
    const problemsAfter = (
      mutate: (c: ComposeFile & { services: Record<string, ComposeService> }) => void,
    ) => {
      const compose = clone(loadCompose()) as ComposeFile & { services: Record<string, ComposeService> };
      mutate(compose);
      return checkCompose(compose).join('\n');
    };
    it('a missing service', () => {
      expect(problemsAfter((c) => delete c.services.identity)).toMatch(/service "identity" missing/);
    });
    it('a wrong backing-server version', () => {
      expect(problemsAfter((c) => (c.services.kafka!.image = 'apache/kafka:4.0.0'))).toMatch(/kafka image/);
    });
    it('a second published port', () => {
      expect(problemsAfter((c) => (c.services.postgres!.ports = ['5432:5432']))).toMatch(
        /postgres publishes/,
      );
    });
    it('a missing environment variable', () => {
      expect(
        problemsAfter((c) => delete (c.services.models!.environment as Record<string, unknown>).DATABASE_URL),
      ).toMatch(/models does not set DATABASE_URL/);
    });
    it('a missing dependency or healthcheck', () => {
      const out = problemsAfter((c) => {
        delete (c.services.notifications!.depends_on as Record<string, unknown>).mongo;
        delete c.services.workflows!.healthcheck;
      });
      expect(out).toMatch(/notifications does not depend on mongo/);
      expect(out).toMatch(/workflows has no healthcheck/);
    });
    it('a Dockerfile that does not exist', () => {
      expect(
        problemsAfter(
          (c) => (c.services.apikeys!.build = { context: '..', dockerfile: 'deploy/docker/Dockerfile.nope' }),
        ),
      ).toMatch(/Dockerfile\.nope does not exist/);
    });
  });
});
