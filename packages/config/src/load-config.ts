import { z } from 'zod';

export type ConfigSchema = z.ZodObject<z.ZodRawShape>;

/** Raised when the environment does not satisfy a service's schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(
      `${service}: invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

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
  return result.data;
}
