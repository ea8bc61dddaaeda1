import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/index.js';

const schema = z.object({
  DATABASE_URL: env.postgresUrl(),
  SECRET_KEY: env.secretKey(),
  GRPC_PORT: env.port().default(50061),
});

const dir = mkdtempSync(join(tmpdir(), 'config-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadConfig('svc', schema, source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('<NAME>_FILE: a variable read from a mounted secret file', () => {
  it('takes the file content, without the trailing newline secret files end with', () => {
    const config = loadConfig('svc', schema, {
      DATABASE_URL_FILE: secretFile('db-url', 'postgres://u:p@db:5432/app\n'),
      SECRET_KEY_FILE: secretFile('secret', `${'k'.repeat(40)}\r\n`),
    });
    expect(config).toEqual({
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      SECRET_KEY: 'k'.repeat(40),
      GRPC_PORT: 50061,
    });
  });

  it('keeps every other character of the file (a PEM key spans lines)', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----';
    const config = loadConfig('svc', z.object({ KEY: z.string() }), {
      KEY_FILE: secretFile('pem', `${pem}\n`),
    });
    expect(config.KEY).toBe(pem);
  });

  it('refuses the variable and its file both set, rather than guessing which wins', () => {
    expect(
      problemsOf({
        DATABASE_URL: 'postgres://u:p@db:5432/app',
        SECRET_KEY: 'k'.repeat(40),
        SECRET_KEY_FILE: secretFile('both', 'k'.repeat(40)),
      }),
    ).toEqual(['SECRET_KEY and SECRET_KEY_FILE are both set: set one of them']);
  });

  it('names a file that is missing or unreadable, with every other problem', () => {
    const unreadable = secretFile('unreadable', 'x');
    chmodSync(unreadable, 0o000);
    const problems = problemsOf({
      DATABASE_URL_FILE: join(dir, 'no-such-file'),
      SECRET_KEY_FILE: unreadable,
      GRPC_PORT: '99999',
    });
    expect(problems[0]).toBe(
      `DATABASE_URL_FILE names ${join(dir, 'no-such-file')}, which cannot be read (ENOENT)`,
    );
    // root reads any file: then the secret is only too short; otherwise it cannot be read.
    expect(problems.some((p) => p.startsWith('SECRET_KEY'))).toBe(true);
    expect(problems.some((p) => p.startsWith('GRPC_PORT is invalid'))).toBe(true);
  });

  it('treats an empty file as unset, and never echoes a file value in an error', () => {
    const problems = problemsOf({
      DATABASE_URL_FILE: secretFile('empty', '\n'),
      SECRET_KEY_FILE: secretFile('short', 'too-short-secret\n'),
    });
    expect(problems).toContain(
      'DATABASE_URL is missing (Invalid input: expected string, received undefined)',
    );
    const secretProblem = problems.find((p) => p.startsWith('SECRET_KEY'))!;
    expect(secretProblem).toMatch(/^SECRET_KEY is invalid \(read from SECRET_KEY_FILE\): /);
    expect(secretProblem).not.toContain('too-short-secret');
  });
});
