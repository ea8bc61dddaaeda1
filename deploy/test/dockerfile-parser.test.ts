// deploy/docker/Dockerfile read by a real Dockerfile parser and validator (dockerfile-ast and
// dockerfile-utils, the parser of the Docker language server), beside the build itself
// (image-build.int.test.ts, buildah) where this machine can run it: the Node 24 base of both stages,
// the runtime stage's user, tini as ENTRYPOINT, and how `node dist/main.js <command>` reaches the
// service through it (a Job's `args` replace CMD, the ENTRYPOINT stays).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DockerfileParser, type Dockerfile, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { DOCKERFILE } from './support/dockerfiles.js';
import { read } from './support/parse.js';
import { REPO } from './support/topology.js';

const text = read(DOCKERFILE);
const dockerfile: Dockerfile = DockerfileParser.parse(text);

/** `${NAME}` of an ARG declared before the first FROM, as the builder resolves it with no --build-arg. */
function resolveInitialArgs(value: string): string {
  const defaults = new Map(
    dockerfile.getInitialARGs().map((arg) => [arg.getProperty()?.getName(), arg.getProperty()?.getValue()]),
  );
  return value.replace(/\$\{(\w+)\}/g, (whole, name: string) => defaults.get(name) ?? whole);
}

/** The instructions of the last stage (from its FROM on). */
function finalStage(): Instruction[] {
  const last = dockerfile.getFROMs().at(-1)!;
  return dockerfile.getInstructions().filter((i) => i.getRange().start.line >= last.getRange().start.line);
}

const execForm = (instruction: JSONInstruction | undefined): string[] =>
  instruction?.getJSONStrings().map((s) => s.getJSONValue()) ?? [];

/** What the container runs for a pod spec's `args` (they replace CMD; ENTRYPOINT stays first). */
function containerArgv(args?: string[]): string[] {
  return [
    ...execForm(dockerfile.getENTRYPOINTs().at(-1)),
    ...(args ?? execForm(dockerfile.getCMDs().at(-1))),
  ];
}

describe('the Dockerfile, parsed', () => {
  it('has no diagnostics from the validator', () => {
    expect(validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('builds both stages FROM node:24-bookworm-slim (the NODE_IMAGE default)', () => {
    const froms = dockerfile.getFROMs();
    expect(froms.map((f) => f.getBuildStage())).toEqual(['build', 'runtime']);
    expect(froms.map((f) => resolveInitialArgs(f.getImage() ?? ''))).toEqual([
      'node:24-bookworm-slim',
      'node:24-bookworm-slim',
    ]);
  });

  it('runs the service as 1000:1000 in /app under tini', () => {
    const stage = finalStage();
    const last = (keyword: string) =>
      stage
        .filter((i) => i.getKeyword() === keyword)
        .at(-1)
        ?.getArgumentsContent();
    expect(last('USER')).toBe('1000:1000');
    expect(last('WORKDIR')).toBe('/app');
    expect(containerArgv()).toEqual(['/usr/bin/tini', '--', 'node', 'dist/main.js']);
  });

  it('hands a Job’s command to the service through tini (node dist/main.js <command>)', () => {
    const jobArgs = ['node', 'dist/main.js', 'migrate'];
    const argv = containerArgv(jobArgs);
    expect(argv.slice(0, 2)).toEqual(['/usr/bin/tini', '--']);
    expect(argv.slice(2)).toEqual(jobArgs);
  });

  // The built identity package (the image copies its dist/; the kafka-topics Job runs this image),
  // given the argv the image runs after tini. All six gRPC services dispatch through runService
  // (packages/runtime's command tests); the gateway has no one-shot commands.
  it('identity: dist/main.js answers an unknown command with the known ones (exit 64), not by serving', () => {
    const result = spawnSync(process.execPath, ['dist/main.js', 'no-such-command'], {
      cwd: join(REPO, 'services', 'identity'),
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent' },
    });
    expect(result.stderr).toMatch(/unknown command "no-such-command" \(known: serve\b/);
    expect(result.status).toBe(64);
  }, 40_000);

  it('catches a broken instruction (the validator is not a rubber stamp)', () => {
    const broken = text.replace('USER 1000:1000', 'USER').replace('--interval=10s', '--interval=ten');
    expect(validate(broken).map((d) => d.message)).toEqual(
      expect.arrayContaining(['Instruction has no arguments', 'time: invalid duration ten']),
    );
  });
});
