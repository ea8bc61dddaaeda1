import { z } from 'zod';
import { apiOnlyRoleShape, shutdownShape } from './process-role-env.js';
import { mongoUrlProblem, parsePostgresUrl } from './connection-urls.js';

const PORT = z.coerce.number().int().min(1).max(65535);

function urlWithScheme(schemes: string[]) {
  return z
    .string()
    .url()
    .refine((value) => schemes.some((s) => value.startsWith(`${s}://`)), {
      message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
    });
}

/** A string `problem` finds nothing wrong with; its answer is the message (deploy/README.md's forms). */
function connectionUrl(problem: (value: string) => string | undefined) {
  return z.string().superRefine((value, ctx) => {
    const found = problem(value);
    if (found)
      ctx.addIssue({ code: 'custom', message: `${found} (see "Connection URLs" in deploy/README.md)` });
  });
}

/** Reusable validators for environment variables; compose them into a service's schema. */
export const env = {
  port: () => PORT,
  positiveInt: () => z.coerce.number().int().positive(),
  /** `true/false/1/0/yes/no`; `fallback` applies when the variable is unset. */
  boolean: (fallback?: boolean) => {
    const flag = z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1' || v === 'yes');
    return fallback === undefined ? flag : flag.optional().transform((v) => v ?? fallback);
  },
  /** One host or libpq's host list (`h1:5432,h2:5432`) with `target_session_attrs`. */
  postgresUrl: () =>
    connectionUrl((value) => {
      const parsed = parsePostgresUrl(value);
      return typeof parsed === 'string' ? parsed : undefined;
    }),
  /** `mongodb://` with one host or a seed list, or `mongodb+srv://` with one name. */
  mongoUrl: () => connectionUrl(mongoUrlProblem),
  redisUrl: () => urlWithScheme(['redis', 'rediss']),
  /** Comma-separated host:port list (Kafka's bootstrap brokers: any one that answers will do). */
  hostPorts: () =>
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine((list) => list.length > 0 && list.every((hp) => /^[^:\s]+:\d{1,5}$/.test(hp)), {
        message: 'must be a comma-separated list of host:port',
      }),
  hostPort: () => z.string().regex(/^[^:\s]+:\d{1,5}$/, 'must be host:port'),
  secretKey: () => z.string().min(32, 'must be at least 32 characters'),
  logLevel: () => z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  nodeEnv: () => z.enum(['development', 'test', 'production']).default('development'),
};

/**
 * Telemetry (docs/operations.md): the switch (`TELEMETRY_ENABLED=false`: no metrics port, no
 * tracing, no span or histogram work on the hot paths; what the overhead bench compares against),
 * the metrics port (never the public one; 0 picks a free port), and the OTLP/HTTP endpoint traces
 * go to (unset: not exported) with the share of new traces kept.
 * The two OTEL_* names are the OpenTelemetry SDK's own, so operators configure them as elsewhere.
 */
export const telemetryShape = {
  TELEMETRY_ENABLED: env.boolean(true),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithScheme(['http', 'https']).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(0.1),
};

/** Variables every service reads. */
export const commonShape = {
  NODE_ENV: env.nodeEnv(),
  LOG_LEVEL: env.logLevel(),
  ...telemetryShape,
  ...shutdownShape,
  /** Services with workers of their own override it with `processRoleShape`. */
  ...apiOnlyRoleShape,
};
