import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { FILE_SUFFIX, resolveFileVariables } from './file-variables.js';
import { kafkaSecurity } from './kafka-env.js';

export { ConfigError };

export type ConfigSchema = z.ZodObject<z.ZodRawShape>;

function describeIssue(
  issue: z.core.$ZodIssue,
  values: Record<string, string | undefined>,
  source: Record<string, string | undefined>,
): string {
  const variable = issue.path.join('.');
  if (values[variable] === undefined) return `${variable} is missing (${issue.message})`;
  // Never echo a value; say where it came from when that was a file.
  const from = source[`${variable}${FILE_SUFFIX}`] ? ` (read from ${variable}${FILE_SUFFIX})` : '';
  return `${variable} is invalid${from}: ${issue.message}`;
}

/**
 * Validates the environment against a zod schema of variables. Empty strings count as unset so that
 * `FOO=` in an env file does not silently pass a required check. Every variable may instead be given
 * as `<NAME>_FILE`, the path of a file holding its value (mounted secrets; docs/development.md).
 */
export function loadConfig<S extends ConfigSchema>(
  service: string,
  schema: S,
  source: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const { values, problems } = resolveFileVariables(Object.keys(schema.shape), source);
  const result = schema.safeParse(values);
  const issues = result.success
    ? []
    : result.error.issues.map((issue) => describeIssue(issue, values, source));
  if (!result.success || problems.length > 0) throw new ConfigError(service, [...problems, ...issues]);
  // Rules across variables: a service that reads the Kafka SASL variables gets them checked here.
  if ('KAFKA_SASL_MECHANISM' in schema.shape) kafkaSecurity(service, result.data);
  return result.data;
}
