// Checks deploy/docker-compose.yml (and, through it, the Dockerfiles it builds) against the
// platform's topology; needs no Docker engine. The "catches" tests break a copy of the real file on
// purpose to prove the check bites.
import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
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
import { checkComposeSandbox, type ComposeWithNetworks } from './support/compose-sandbox.js';
import { FORBIDDEN_SANDBOX_ENV } from './support/k8s-sandbox.js';
import { clone, read } from './support/parse.js';
import { DEPLOY, DOCKER, SECRET_AUDIENCE, SERVICES } from './support/topology.js';

/** KEY=value lines of a .env file; 'single-quoted' values are taken literally, as compose does. */
function parseDotenv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^(\w+)=(.*)$/.exec(line.trim());
    if (m?.[1]) env[m[1]] = (m[2] ?? '').replace(/^'(.*)'$/, '$1');
  }
  return env;
}

describe('docker compose', () => {
  it('has the backing servers, the seven services and only the gateway published', () => {
    expect(checkCompose(loadCompose())).toEqual([]);
  });

  it('runs the sandbox worker alone with Kafka, with the Kafka variables only', () => {
    const compose = loadCompose() as ComposeWithNetworks;
    expect(checkComposeSandbox(compose)).toEqual([]);
    const env = composeEnv(compose.services!['sandbox-worker']!);
    // Every variable the process that runs user code must never hold (DATABASE_URL, REDIS_URL,
    // MONGO_URL, SECRET_KEY, OTLP, keys, addresses of services: support/k8s-sandbox.ts).
    expect(Object.keys(env).filter((k) => FORBIDDEN_SANDBOX_ENV.some((re) => re.test(k)))).toEqual([]);
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

  it('sets TZ on every service from the one variable ${TZ:-UTC}', () => {
    const compose = loadCompose();
    const zones = SERVICES.map((s) => composeEnv(compose.services?.[s.name] ?? {}).TZ);
    expect(zones).toEqual(SERVICES.map(() => '${TZ:-UTC}'));
  });

  it('gives each service only the secrets of its audience, all from variables', () => {
    const compose = loadCompose();
    for (const s of SERVICES) {
      const env = composeEnv(compose.services?.[s.name] ?? {});
      const held = Object.keys(SECRET_AUDIENCE).filter((k) => k in env);
      expect([s.name, held.sort()]).toEqual([
        s.name,
        Object.keys(SECRET_AUDIENCE)
          .filter((k) => SECRET_AUDIENCE[k]!.includes(s.name))
          .sort(),
      ]);
    }
    const gateway = composeEnv(compose.services!.gateway!);
    expect(gateway.PRINCIPAL_SIGNING_PRIVATE_KEY).toMatch(/^\$\{PRINCIPAL_SIGNING_PRIVATE_KEY:\?/);
    // Models' SECRET_KEY is a value of its own, never the key that signs user JWTs.
    expect(gateway.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
    expect(composeEnv(compose.services!.models!).SECRET_KEY).toMatch(/^\$\{MODELS_SECRET_KEY:\?/);
  });

  it('dev-secrets.mjs writes every variable compose requires, with a working key pair', () => {
    const out = spawnSync(process.execPath, [join(DOCKER, 'dev-secrets.mjs')], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const dotenv = parseDotenv(out.stdout);
    const uncommented = read(join(DEPLOY, 'docker-compose.yml'))
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    const required = [...uncommented.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(5);
    expect(required.filter((v) => !dotenv[v])).toEqual([]);
    for (const key of ['SECRET_KEY', 'TASK_SEAL_KEY']) expect(dotenv[key]!.length).toBeGreaterThanOrEqual(32);
    expect(dotenv.REDIS_PASSWORD).toMatch(/^[0-9a-f]{32,}$/);
    expect(dotenv.POSTGRES_PASSWORD).toMatch(/^[0-9a-f]{32,}$/);
    const pem = (v: string) => v.replace(/\\n/g, '\n');
    const privateKey = createPrivateKey(pem(dotenv.PRINCIPAL_SIGNING_PRIVATE_KEY!));
    const publicKey = createPublicKey(pem(dotenv.PRINCIPAL_SIGNING_PUBLIC_KEY!));
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    const data = Buffer.from('principal');
    expect(verify(null, data, publicKey, sign(null, data, privateKey))).toBe(true);
    // Each caller's service key pair works too, and no two services share one.
    const callers = Object.keys(dotenv).filter((k) => k.startsWith('SERVICE_SIGNING_PRIVATE_KEY_'));
    expect(callers.length).toBeGreaterThanOrEqual(6);
    for (const variable of callers) {
      const servicePrivate = createPrivateKey(pem(dotenv[variable]!));
      const servicePublic = createPublicKey(pem(dotenv[variable.replace('SIGNING_PRIVATE', 'PUBLIC')]!));
      expect(verify(null, data, servicePublic, sign(null, data, servicePrivate)), variable).toBe(true);
    }
    expect(new Set(callers.map((v) => dotenv[v])).size).toBe(callers.length);
    // Two runs never share a key.
    const again = parseDotenv(
      spawnSync(process.execPath, [join(DOCKER, 'dev-secrets.mjs')], { encoding: 'utf8' }).stdout,
    );
    expect(again.SECRET_KEY).not.toBe(dotenv.SECRET_KEY);
  });

  describe('catches', () => {
    const problemsAfter = (
      mutate: (c: ComposeFile & { services: Record<string, ComposeService> }) => void,
    ) => {
      const compose = clone(loadCompose()) as ComposeFile & { services: Record<string, ComposeService> };
      mutate(compose);
      return checkCompose(compose).join('\n');
    };
    it('a sandbox worker given the shared environment, another network, or a neighbour on its own', () => {
      const compose = clone(loadCompose()) as ComposeWithNetworks;
      const services = compose.services as Record<string, ComposeService & { networks?: string[] }>;
      const sandbox = services['sandbox-worker']!;
      sandbox.environment = {
        ...composeEnv(services.workflows!),
        PROCESS_ROLE: 'sandbox',
        GRPC_PORT: '50067',
      };
      sandbox.networks = ['sandbox', 'default'];
      services.redis!.networks = ['default', 'sandbox'];
      const out = checkComposeSandbox(compose).join('\n');
      expect(out).toMatch(/sandbox-worker is given DATABASE_URL/);
      expect(out).toMatch(/sandbox-worker is given REDIS_URL/);
      expect(out).toMatch(/sandbox-worker is given IDENTITY_GRPC_ADDR/);
      expect(out).toMatch(/sandbox-worker is given SERVICE_SIGNING_PRIVATE_KEY/);
      expect(out).toMatch(/sandbox-worker is on network default, which is not internal/);
      expect(out).toMatch(/sandbox-worker shares network sandbox with redis/);
    });
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
    it('a metrics port not exposed, published, or moved; a trace endpoint written into the file', () => {
      const out = problemsAfter((c) => {
        c.services.workflows!.expose = ['50065'];
        c.services.identity!.ports = ['9464:9464'];
        (c.services.models!.environment as Record<string, unknown>).METRICS_PORT = '9100';
        (c.services.gateway!.environment as Record<string, unknown>).OTEL_EXPORTER_OTLP_ENDPOINT =
          'http://jaeger:4318';
      });
      expect(out).toMatch(/workflows does not expose the metrics port 9464/);
      expect(out).toMatch(/identity publishes ports \["9464:9464"\]/);
      expect(out).toMatch(/models METRICS_PORT=9100, expected 9464/);
      expect(out).toMatch(/gateway OTEL_EXPORTER_OTLP_ENDPOINT is not the optional/);
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
    it('a secret outside its audience, or written into the file', () => {
      const out = problemsAfter((c) => {
        const env = (name: string) => c.services[name]!.environment as Record<string, unknown>;
        env('apikeys').SECRET_KEY = '${SECRET_KEY:?set it}';
        env('identity').PRINCIPAL_SIGNING_PRIVATE_KEY = '${PRINCIPAL_SIGNING_PRIVATE_KEY:?set it}';
        env('workflows').SERVICE_SIGNING_PRIVATE_KEY = '${SERVICE_SIGNING_PRIVATE_KEY_GATEWAY:?set it}';
        env('notifications').SERVICE_PUBLIC_KEY_GATEWAY = '${SERVICE_PUBLIC_KEY_GATEWAY:?set it}';
        env('models').REDIS_URL = 'redis://:hunter2@redis:6379/0';
        env('notifications').KAFKA_SASL_PASSWORD = 'hunter2';
        env('workflows').DATABASE_URL = 'postgres://platform:platform@postgres:5432/workflows';
      });
      expect(out).toMatch(/apikeys is given SECRET_KEY, which only gateway, identity, models may hold/);
      expect(out).toMatch(/identity is given PRINCIPAL_SIGNING_PRIVATE_KEY, which only gateway/);
      // Another service's private key under the common name: workflows could sign as the gateway.
      expect(out).toMatch(
        /workflows SERVICE_SIGNING_PRIVATE_KEY must come from the environment as \$\{SERVICE_SIGNING_PRIVATE_KEY_WORKFLOWS/,
      );
      expect(out).toMatch(
        /notifications is given SERVICE_PUBLIC_KEY_GATEWAY, which only identity, apikeys may hold/,
      );
      expect(out).toMatch(/models REDIS_URL does not carry the password/);
      expect(out).toMatch(/notifications KAFKA_SASL_PASSWORD is written into the file/);
      expect(out).toMatch(
        /workflows DATABASE_URL carries a password that is not a \$\{NAME:\?...\} variable/,
      );
    });
    it('a fixed timezone, or a Redis without a password', () => {
      const out = problemsAfter((c) => {
        (c.services.observability!.environment as Record<string, unknown>).TZ = 'Europe/Berlin';
        c.services.redis!.command = 'redis-server --appendonly yes';
      });
      expect(out).toMatch(/observability TZ=Europe\/Berlin is not the one setting/);
      expect(out).toMatch(/redis does not require the password/);
    });
    it('a Redis that may evict or grow without bound, or a gateway that believes any X-Forwarded-For', () => {
      const out = problemsAfter((c) => {
        c.services.redis!.command = [
          'sh',
          '-c',
          'exec redis-server --requirepass "$$REDIS_PASSWORD" --maxmemory-policy allkeys-lru',
        ];
        (c.services.gateway!.environment as Record<string, unknown>).TRUST_PROXY = 'true';
      });
      expect(out).toMatch(/redis has no --maxmemory from REDIS_MAXMEMORY/);
      expect(out).toMatch(/redis does not run --maxmemory-policy noeviction/);
      expect(out).toMatch(/gateway TRUST_PROXY is not the one setting/);
    });
    it('build arguments that do not name the service and its port', () => {
      const out = problemsAfter((c) => {
        (c.services.models!.build as { args: Record<string, string> }).args.PORT = '50065';
        (c.services.gateway!.build as { args: Record<string, string> }).args.SERVICE = 'identity';
      });
      expect(out).toMatch(/models: .*SERVICE=models PORT=50065.* refused by the Dockerfile's service map/);
      expect(out).toMatch(/gateway: .*does not pnpm deploy --filter @platform\/gateway/);
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
