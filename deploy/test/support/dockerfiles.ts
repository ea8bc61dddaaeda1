// The Dockerfile check: the one Dockerfile rendered with a service's build arguments (multi-stage,
// pnpm deploy of the right package, port, timezone, healthcheck, non-root), its service map, and
// enough of Docker's .dockerignore semantics to test the build-context filter.
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

export const DOCKERFILE = join(DOCKER, 'Dockerfile');
export const DOCKERIGNORE = join(DOCKER, 'Dockerfile.dockerignore');

export type BuildArgs = Record<string, string>;
export const buildArgsFor = (spec: ServiceSpec): BuildArgs => ({
  SERVICE: spec.name,
  PORT: String(spec.port),
});

/** The instructions as Docker would see them for these build arguments: `${X}` and `$X` of every
 *  ARG replaced by the argument or the ARG's default (an unset one by nothing, as Docker does). */
export function renderDockerfile(text: string, buildArgs: BuildArgs): string[] {
  const values = new Map<string, string>();
  return dockerInstructions(text).map((instruction) => {
    const arg = /^ARG\s+(\w+)(?:=(\S*))?$/.exec(instruction);
    if (arg?.[1]) values.set(arg[1], buildArgs[arg[1]] ?? arg[2] ?? '');
    return instruction.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a?: string, b?: string) => {
      const name = a ?? b ?? '';
      return values.has(name) ? (values.get(name) ?? '') : whole;
    });
  });
}

/** The SERVICE=PORT pairs the Dockerfile's `case` accepts (its service map). */
export function dockerServiceMap(text: string): Map<string, number> {
  const line = dockerInstructions(text).find((i) => /^RUN\s+case\s+"\$\{SERVICE\}=\$\{PORT\}"/.test(i));
  const accepted = /\bin\s+([\w=|-]+)\)/.exec(line ?? '')?.[1] ?? '';
  const map = new Map<string, number>();
  for (const pair of accepted.split('|').filter(Boolean)) {
    const [name, port] = pair.split('=');
    if (name && port) map.set(name, Number(port));
  }
  return map;
}

/** Which probe the image's HEALTHCHECK runs: "auto" resolves as healthcheck.mjs does. */
function healthcheckMode(ins: string[]): string | undefined {
  const hc = ins.find((i) => /^HEALTHCHECK\s/.test(i));
  const mode = new RegExp(`CMD.*${HEALTHCHECK_IN_IMAGE}", "(\\w+)"`).exec(hc ?? '')?.[1];
  if (mode !== 'auto') return mode;
  const service = ins
    .filter((i) => /^ENV\s/.test(i))
    .map((i) => /\bPLATFORM_SERVICE=(\S+)/.exec(i)?.[1])
    .find(Boolean);
  if (!service) return undefined;
  return service === 'gateway' ? 'http' : 'grpc';
}

/** The Dockerfile as built for one service (by default with that service's own build arguments;
 *  compose passes the ones it has). */
export function checkDockerfile(
  path: string,
  spec: ServiceSpec,
  buildArgs: BuildArgs = buildArgsFor(spec),
): string[] {
  const problems: string[] = [];
  const name = `${relative(REPO, path)} (${Object.entries(buildArgs)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')})`;
  const text = read(path);
  const ins = renderDockerfile(text, buildArgs);
  const map = dockerServiceMap(text);
  if (map.get(buildArgs.SERVICE ?? '') !== Number(buildArgs.PORT)) {
    problems.push(`${name} is refused by the Dockerfile's service map`);
  }
  const froms = ins.filter((i) => /^FROM\s/i.test(i)).map((i) => i.split(/\s+/)[1] ?? '');
  if (froms.length < 2) problems.push(`${name} is not multi-stage`);
  for (const image of froms) {
    if (image !== 'node:24-bookworm-slim')
      problems.push(`${name} builds FROM ${image}, not node:24-bookworm-slim`);
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
  if (!has(/^ENV\s.*\bTZ=\S+/)) problems.push(`${name} does not default TZ`);
  if (!has(/^RUN\s.*apt-get install .*\btzdata\b/)) problems.push(`${name} does not install tzdata`);
  if (!has(new RegExp(`^COPY\\s+deploy/docker/healthcheck\\.mjs\\s+${HEALTHCHECK_IN_IMAGE}$`))) {
    problems.push(`${name} does not copy healthcheck.mjs to ${HEALTHCHECK_IN_IMAGE}`);
  }
  if (healthcheckMode(ins) !== spec.protocol) {
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
  if (!existsSync(`${path}.dockerignore`)) problems.push(`${relative(REPO, path)}.dockerignore is missing`);
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
