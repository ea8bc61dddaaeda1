// The Dockerfile check (multi-stage, pnpm deploy of the right package, port, healthcheck, non-root)
// and enough of Docker's .dockerignore semantics to test the build-context filter.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { read } from './parse.js';
import { DOCKER, REPO, type ServiceSpec } from './topology.js';

const HEALTHCHECK_IN_IMAGE = '/usr/local/lib/platform/healthcheck.mjs';

/** Instructions with line continuations joined and comments dropped. */
function dockerInstructions(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // comment inside a continuation
    if (line.endsWith('\\')) current += `${line.slice(0, -1)} `;
    else {
      lines.push((current + line).trim());
      current = '';
    }
  }
  return lines;
}

export function buildStage(text: string): string[] {
  const ins = dockerInstructions(text);
  const start = ins.findIndex((i) => /^FROM\s.*\sAS\s+build$/i.test(i));
  const end = ins.findIndex((i, n) => n > start && /^FROM\s/i.test(i));
  return start < 0 ? [] : ins.slice(start, end < 0 ? undefined : end);
}

export function checkDockerfile(path: string, spec: ServiceSpec): string[] {
  const problems: string[] = [];
  const name = relative(REPO, path);
  const ins = dockerInstructions(read(path));
  const args = new Map<string, string>();
  for (const i of ins) {
    const m = /^ARG\s+(\w+)=(\S+)$/.exec(i);
    if (m?.[1] && m[2]) args.set(m[1], m[2]);
  }
  const froms = ins
    .filter((i) => /^FROM\s/i.test(i))
    .map((i) => (i.split(/\s+/)[1] ?? '').replace(/\$\{(\w+)\}/g, (_, v: string) => args.get(v) ?? ''));
  if (froms.length < 2) problems.push(`${name} is not multi-stage`);
  for (const image of froms) {
    if (image !== 'node:20-bookworm-slim')
      problems.push(`${name} builds FROM ${image}, not node:20-bookworm-slim`);
  }
  const has = (re: RegExp): boolean => ins.some((i) => re.test(i));
  if (!has(/^RUN\s+--mount=type=cache\S*\s.*pnpm install --frozen-lockfile/)) {
    problems.push(`${name} does not run pnpm install --frozen-lockfile with a cache mount`);
  }
  if (!has(new RegExp(`pnpm deploy --filter @platform/${spec.name} --prod /out(\\s|$)`))) {
    problems.push(`${name} does not pnpm deploy --filter @platform/${spec.name}`);
  }
  if (!has(new RegExp(`^EXPOSE\\s+${spec.port}$`))) problems.push(`${name} does not EXPOSE ${spec.port}`);
  const portVar = spec.protocol === 'http' ? 'HTTP_PORT' : 'GRPC_PORT';
  if (!has(new RegExp(`^ENV\\s.*\\b${portVar}=${spec.port}\\b`))) {
    problems.push(`${name} does not default ${portVar}=${spec.port}`);
  }
  if (!has(new RegExp(`^COPY\\s+deploy/docker/healthcheck\\.mjs\\s+${HEALTHCHECK_IN_IMAGE}$`))) {
    problems.push(`${name} does not copy healthcheck.mjs to ${HEALTHCHECK_IN_IMAGE}`);
  }
  if (!has(new RegExp(`^HEALTHCHECK\\s.*CMD.*${HEALTHCHECK_IN_IMAGE}", "${spec.protocol}"`))) {
    problems.push(`${name} has no HEALTHCHECK running healthcheck.mjs ${spec.protocol}`);
  }
  const users = ins.filter((i) => /^USER\s/i.test(i)).map((i) => i.split(/\s+/)[1] ?? '');
  const lastUser = users.at(-1) ?? 'root';
  if (/^(root|0)(:|$)/.test(lastUser)) problems.push(`${name} runs as root`);
  else if (!/^\d+(:\d+)?$/.test(lastUser)) {
    problems.push(`${name} USER ${lastUser} is not numeric (Kubernetes cannot verify runAsNonRoot)`);
  }
  if (!has(/^CMD\s+\["node",\s*"dist\/main\.js"\]$/))
    problems.push(`${name} does not start node dist/main.js`);

  // The build-context filter BuildKit uses for this Dockerfile.
  const ignoreFile = `${path}.dockerignore`;
  if (!existsSync(ignoreFile)) problems.push(`${name}.dockerignore is missing`);
  else if (read(ignoreFile) !== read(join(DOCKER, '.dockerignore'))) {
    problems.push(`${name}.dockerignore differs from deploy/docker/.dockerignore`);
  }
  return problems;
}

/** A .dockerignore pattern as a regular expression over slash-separated context paths. */
function dockerGlob(glob: string): RegExp {
  const g = glob.replace(/^\/+|\/+$/g, '');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i] ?? '';
    if (c === '*' && g[i + 1] === '*') {
      i++;
      if (g[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Docker's .dockerignore semantics, enough for these files: the last matching pattern wins, a
 *  pattern matching a parent directory matches everything under it, `!` re-includes. */
export function dockerIgnored(patterns: string[], path: string): boolean {
  const parts = path.split('/');
  const selfAndParents = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const re = dockerGlob(negate ? line.slice(1) : line);
    if (selfAndParents.some((p) => re.test(p))) ignored = !negate;
  }
  return ignored;
}
