// Finding promtool (`./platform tools` builds it from github.com/prometheus/prometheus with
// deploy/tools/install-prometheus.sh and exports PROMTOOL) and running it. A required tool of the
// test suite, never optional: missing, the tests that need it fail.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const works = (bin: string) =>
  spawnSync(bin, ['--version'], { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** $PROMTOOL, or the one install-prometheus.sh built; undefined when none works. */
export function promtool(): string | undefined {
  const cache = process.env.AGENT_PLATFORM_CACHE_DIR ?? join(homedir(), '.cache', 'agent-platform');
  const candidates = [process.env.PROMTOOL, join(cache, 'go-bin', 'promtool')];
  return candidates.find((c): c is string => !!c && existsSync(c) && works(c));
}

export interface PromtoolResult {
  status: number | null;
  output: string;
}

export function runPromtool(args: string[], cwd?: string): PromtoolResult {
  const bin = promtool();
  if (!bin) throw new Error('promtool not found: run `./platform tools` (or set PROMTOOL)');
  const out = spawnSync(bin, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (out.error) throw out.error;
  return { status: out.status, output: `${out.stdout}${out.stderr}` };
}
