import { readFileSync } from 'node:fs';

/** The suffix that names a file holding a variable's value (a mounted Kubernetes or Docker secret). */
export const FILE_SUFFIX = '_FILE';

/**
 * The values of `keys`, each from `KEY` or else from the file `KEY_FILE` names (its content, one
 * trailing newline dropped: secret files usually end with one). Both set is refused rather than
 * guessed, and so is a file that cannot be read; both come back as problems naming the variable.
 */
export function resolveFileVariables(
  keys: readonly string[],
  source: Record<string, string | undefined>,
): { values: Record<string, string | undefined>; problems: string[] } {
  const values: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const key of keys) {
    const direct = source[key] === '' ? undefined : source[key];
    const file = source[`${key}${FILE_SUFFIX}`];
    values[key] = direct;
    if (!file) continue;
    if (direct !== undefined) {
      problems.push(`${key} and ${key}${FILE_SUFFIX} are both set: set one of them`);
      continue;
    }
    try {
      const content = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      values[key] = content === '' ? undefined : content;
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push(`${key}${FILE_SUFFIX} names ${file}, which cannot be read (${reason})`);
    }
  }
  return { values, problems };
}
