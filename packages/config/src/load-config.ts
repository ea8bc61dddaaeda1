import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { kafkaSecurity } from './kafka-env.js';

export { ConfigError };

export type ConfigSchema = z.ZodObject<z.ZodRawShape>;

function describeIssue(issue: z.core.$ZodIssue, source: Record<string, string | undefined>): string {
  const variable = issue.path.join('.');
  if (source[variable] === undefined || source[variable] === '') {
    return `${variable} is missing (${issue.message})`;
  }
  return `${variable} is invalid: ${issue.message}`;
}

/**
 * Validates the environment against a zod schema of variables. Empty strings count as unset so that
 * `FOO=` in an env file does not silently pass a required check.
 */
export function loadConfig<S extends ConfigSchema>(
  service: string,
  schema: S,
  source: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const cleaned: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = source[key];
    cleaned[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      service,
      result.error.issues.map((issue) => describeIssue(issue, cleaned)),
    );
  }
  // Rules across variables: a service that reads the Kafka SASL variables gets them checked here.
  if ('KAFKA_SASL_MECHANISM' in schema.shape) kafkaSecurity(service, result.data);
  return result.data;
}
