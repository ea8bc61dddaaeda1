// The shipped alert rules (deploy/observability/prometheus/alerts.rules.yml): promtool accepts them
// and their unit tests pass, every alert is tested firing and quiet, carries severity, summary,
// description and a runbook link into docs/operations.md, uses only documented metrics, and the
// PrometheusRule in the k8s base carries exactly the same groups. promtool is required (`./platform
// tools` builds it): missing, these fail, never skip. The "catches" tests break copies on purpose.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  OPERATIONS_DOC,
  PROMETHEUS_DIR,
  PROMETHEUS_RULE_FILE,
  RULES_FILE,
  alertRuleTests,
  allRules,
  documentedMetricNames,
  loadRuleGroups,
  ruleTestFiles,
} from './support/observability.js';
import { metricNames, undocumented } from './support/promql.js';
import { promtool, runPromtool } from './support/promtool.js';
import { read } from './support/parse.js';
import { REPO } from './support/topology.js';

const groups = loadRuleGroups();
const alerts = allRules(groups).filter((r) => r.alert);
const recorded = new Set(allRules(groups).flatMap((r) => (r.record ? [r.record] : [])));

/** A copy of the rules folder with `edit` applied to the rules file; returns the test files' paths. */
function editedCopy(edit: (rules: string) => string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'rules-'));
  cpSync(PROMETHEUS_DIR, dir, { recursive: true });
  writeFileSync(join(dir, basename(RULES_FILE)), edit(read(RULES_FILE)));
  return ruleTestFiles().map((f) => join(dir, 'tests', basename(f)));
}

describe('Prometheus alert rules', () => {
  it('promtool is installed', () => {
    expect(promtool(), 'promtool not found: run `./platform tools` (or set PROMTOOL)').toBeTruthy();
  });

  it('pass promtool check rules', () => {
    const result = runPromtool(['check', 'rules', RULES_FILE]);
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(result.status).toBe(0);
  });

  it('pass their promtool unit tests', () => {
    const files = ruleTestFiles();
    expect(files.length).toBeGreaterThan(0);
    const result = runPromtool(['test', 'rules', ...files]);
    expect(result.status, result.output).toBe(0);
  });

  it('every alert has a test where it fires and one where it stays quiet', () => {
    const cases = alertRuleTests();
    for (const { alert } of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => (c.exp_alerts ?? []).length > 0),
        `${alert} fires in a test`,
      ).toBe(true);
      expect(
        mine.some((c) => (c.exp_alerts ?? []).length === 0),
        `${alert} stays quiet in a test`,
      ).toBe(true);
    }
    const names = new Set(alerts.map((a) => a.alert));
    expect(cases.filter((c) => !names.has(c.alertname)).map((c) => c.alertname)).toEqual([]);
  });

  it('every alert has a severity, a summary, a description and a runbook in docs/operations.md', () => {
    const docs = read(OPERATIONS_DOC);
    for (const rule of alerts) {
      const anchor = `alert-${rule.alert!.toLowerCase()}`;
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook, rule.alert).toBe(`docs/operations.md#${anchor}`);
      expect(docs, `docs/operations.md has no id="${anchor}"`).toContain(`id="${anchor}"`);
    }
  });

  it('use only metrics that docs/operations.md describes', () => {
    expect(
      undocumented(
        allRules(groups).map((r) => r.expr),
        documentedMetricNames(),
        recorded,
      ),
    ).toEqual([]);
  });

  it('are the groups of the PrometheusRule in the k8s base, and the generated file is current', () => {
    const object = parse(read(PROMETHEUS_RULE_FILE)) as { kind: string; spec: { groups: unknown } };
    expect(object.kind).toBe('PrometheusRule');
    expect(object.spec.groups).toEqual(groups);
    const check = spawnSync(
      process.execPath,
      [join(REPO, 'deploy', 'tools', 'prometheus-rule.mjs'), '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  describe('catches', () => {
    it('a threshold changed without its test', () => {
      const files = editedCopy((rules) => rules.replace('> 0.05', '> 0.5'));
      const result = runPromtool(['test', 'rules', ...files]);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/GatewayErrorRatioHigh/);
    });
    it('a rules file promtool refuses', () => {
      const files = editedCopy((rules) => rules.replace('for: 5m', 'for: five minutes'));
      const rulesCopy = join(files[0]!, '..', '..', basename(RULES_FILE));
      expect(runPromtool(['check', 'rules', rulesCopy]).status).not.toBe(0);
    });
    it('a PrometheusRule that differs from the rules file', () => {
      const edited = loadRuleGroups(read(RULES_FILE).replace('> 300', '> 600'));
      const object = parse(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')) as { spec: { groups: unknown } };
      expect(object.spec.groups).not.toEqual(edited);
    });
    it('an undocumented metric, read past functions, matchers, grouping and ranges', () => {
      expect(
        metricNames('sum by (le) (rate(foo_seconds_bucket{a="b{c}"}[5m])) / on(x) bar_total offset 5m > 1'),
      ).toEqual(['foo_seconds_bucket', 'bar_total']);
      const exprs = [
        'rate(http_server_request_duration_seconds_count[5m])',
        'rate(made_up_total[$__rate_interval])',
      ];
      expect(undocumented(exprs, documentedMetricNames(), new Set())).toEqual(['made_up_total']);
      expect(
        undocumented(['up == 0', 'nodejs_eventloop_lag_p99_seconds'], documentedMetricNames(), new Set()),
      ).toEqual([]);
    });
  });
});
