// Small file and YAML helpers shared by the deployment checks.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export const read = (path: string): string => readFileSync(path, 'utf8');
export const clone = <T>(value: T): T => structuredClone(value);
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function yamlDocuments(path: string): unknown[] {
  return parseAllDocuments(read(path)).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}
