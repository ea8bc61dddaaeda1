// scripts/test-summary.mjs, the closing line of `./platform test`: counts over real vitest-style JSON
// reports, skipped and todo tests counted and failing the run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/topology.js';

const SCRIPT = join(REPO, 'scripts', 'test-summary.mjs');

function report(statuses: string[], extra: Record<string, number> = {}) {
  const count = (s: string) => statuses.filter((x) => x === s).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped') + count('pending'),
    numTodoTests: count('todo'),
    numFailedTestSuites: 0,
    testResults: [
      { assertionResults: statuses.map((status, i) => ({ status, fullName: `test ${i} ${status}` })) },
    ],
    ...extra,
  };
}

function summarize(...reports: object[]) {
  const dir = mkdtempSync(join(tmpdir(), 'summary-'));
  const files = reports.map((r, i) => {
    const file = join(dir, `${i}.json`);
    writeFileSync(file, JSON.stringify(r));
    return file;
  });
  const out = spawnSync(process.execPath, [SCRIPT, ...files, join(dir, 'missing.json')], {
    encoding: 'utf8',
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('test-summary.mjs', () => {
  it('prints the plain closing line with passed, failed and skipped over every report', () => {
    const out = summarize(report(['passed', 'passed', 'failed']), report(['passed']));
    expect(out.stdout).toBe('tests: 3 passed, 1 failed, 0 skipped\n');
    expect(out.stdout.trim()).toMatch(/^\w+: \d+ passed, \d+ failed, \d+ skipped$/);
    expect(out.code).toBe(0);
  });

  it('counts skipped and todo tests, names them and exits 1', () => {
    const out = summarize(report(['passed', 'skipped', 'todo']), report(['passed', 'pending']));
    expect(out.stdout).toBe('tests: 2 passed, 0 failed, 3 skipped\n');
    expect(out.stderr).toMatch(/test 1 skipped/);
    expect(out.stderr).toMatch(/test 2 todo/);
    expect(out.stderr).toMatch(/test 1 pending/);
    expect(out.code).toBe(1);
  });

  it('counts JUnit test cases (the fuzzing report): passed, failed, errored and skipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'summary-'));
    const xml = join(dir, 'fuzz.xml');
    writeFileSync(
      xml,
      `<?xml version="1.0"?><testsuites><testsuite name="s" tests="4">
<testcase name="GET /a" time="1"/>
<testcase name="GET /b"><failure message="5xx">boom</failure></testcase>
<testcase name="GET /c"><error message="x"/></testcase>
<testcase name="GET /d"><skipped/></testcase>
</testsuite></testsuites>`,
    );
    const out = spawnSync(process.execPath, [SCRIPT, xml], { encoding: 'utf8' });
    expect(out.stdout).toBe('tests: 1 passed, 2 failed, 1 skipped\n');
    expect(out.stderr).toMatch(/GET \/d/);
    expect(out.status).toBe(1);
  });

  it('counts a file that failed to load as a failure', () => {
    const out = summarize(report([], { numFailedTestSuites: 2 }));
    expect(out.stdout).toBe('tests: 0 passed, 2 failed, 0 skipped\n');
  });
});
