// The shipped alert rules, their promtool tests, the PrometheusRule made from them and the Grafana
// dashboards, as the observability checks read them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { read } from './parse.js';
import { documentedMetrics } from './promql.js';
import { DEPLOY, K8S, REPO } from './topology.js';

export const PROMETHEUS_DIR = join(DEPLOY, 'observability', 'prometheus');
export const RULES_FILE = join(PROMETHEUS_DIR, 'alerts.rules.yml');
export const RULE_TESTS_DIR = join(PROMETHEUS_DIR, 'tests');
export const PROMETHEUS_RULE_FILE = join(K8S, 'base', 'monitoring', 'prometheus-rule.yaml');
export const DASHBOARD_DIR = join(DEPLOY, 'observability', 'grafana');
export const OPERATIONS_DOC = join(REPO, 'docs', 'operations.md');

/** The metric names docs/operations.md's tables describe. */
export const documentedMetricNames = (): Set<string> => new Set(documentedMetrics(OPERATIONS_DOC));

export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface RuleGroup {
  name: string;
  rules: Rule[];
}

export const loadRuleGroups = (text = read(RULES_FILE)): RuleGroup[] =>
  (parse(text) as { groups: RuleGroup[] }).groups;
export const allRules = (groups: RuleGroup[]): Rule[] => groups.flatMap((g) => g.rules);

export const ruleTestFiles = (): string[] =>
  readdirSync(RULE_TESTS_DIR)
    .filter((f) => f.endsWith('.test.yml'))
    .map((f) => join(RULE_TESTS_DIR, f));

interface AlertRuleTest {
  alertname: string;
  exp_alerts?: unknown[];
}
/** Every `alert_rule_test` case of the promtool test files. */
export function alertRuleTests(): AlertRuleTest[] {
  return ruleTestFiles().flatMap((file) =>
    ((parse(read(file)) as { tests?: { alert_rule_test?: AlertRuleTest[] }[] }).tests ?? []).flatMap(
      (t) => t.alert_rule_test ?? [],
    ),
  );
}

export interface Panel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  targets?: { expr?: string; datasource?: { type?: string; uid?: string } }[];
  panels?: Panel[];
}
export interface Dashboard {
  uid?: string;
  title?: string;
  schemaVersion?: number;
  templating?: { list?: { name?: string; type?: string; query?: unknown }[] };
  panels?: Panel[];
}

export const dashboardFiles = (): string[] =>
  readdirSync(DASHBOARD_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(DASHBOARD_DIR, f));

/** Every panel, the ones nested in collapsed rows included. */
export const allPanels = (panels: Panel[] = []): Panel[] =>
  panels.flatMap((p) => [p, ...allPanels(p.panels)]);

/** The dashboard's problems: schema version, datasource variable, panel ids, datasources. */
export function checkDashboard(name: string, d: Dashboard): string[] {
  const problems: string[] = [];
  if (!d.uid || !d.title) problems.push(`${name} has no uid or title`);
  if ((d.schemaVersion ?? 0) < 39) problems.push(`${name} schemaVersion ${d.schemaVersion} < 39`);
  const variables = d.templating?.list ?? [];
  const datasource = variables.find((v) => v.name === 'datasource');
  if (datasource?.type !== 'datasource' || datasource.query !== 'prometheus')
    problems.push(`${name} has no \${datasource} variable of type prometheus`);
  const panels = allPanels(d.panels);
  if (panels.filter((p) => p.type !== 'row').length === 0) problems.push(`${name} has no panels`);
  const ids = panels.map((p) => p.id);
  const duplicates = ids.filter((id, n) => id === undefined || ids.indexOf(id) !== n);
  if (duplicates.length > 0) problems.push(`${name} panel ids missing or repeated: ${duplicates.join(', ')}`);
  for (const p of panels.filter((panel) => panel.type !== 'row')) {
    const sources = [p.datasource, ...(p.targets ?? []).map((t) => t.datasource)];
    if (sources.some((s) => s?.uid !== '${datasource}' || s.type !== 'prometheus'))
      problems.push(`${name} panel "${p.title}" does not query the \${datasource} variable`);
    if ((p.targets ?? []).length === 0 || p.targets!.some((t) => !t.expr?.trim()))
      problems.push(`${name} panel "${p.title}" has no query`);
  }
  return problems;
}

/** A dashboard query as a plain PromQL expression (Grafana's variables set to what they stand for). */
export const asPromql = (expr: string): string =>
  expr.replace(/\$__rate_interval/g, '5m').replace(/\$service\b/g, '.*');
