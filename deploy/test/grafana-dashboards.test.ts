// The Grafana dashboards of deploy/observability/grafana/: current with their generator, valid JSON
// with unique panel ids and the ${datasource} variable, one per area, every query valid PromQL
// (promtool parses them as recording rules) over metrics docs/operations.md describes. The
// "catches" tests break copies on purpose to prove the checks bite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  allPanels,
  asPromql,
  checkDashboard,
  dashboardFiles,
  documentedMetricNames,
  type Dashboard,
} from './support/observability.js';
import { clone, read } from './support/parse.js';
import { undocumented } from './support/promql.js';
import { runPromtool } from './support/promtool.js';
import { REPO } from './support/topology.js';

const dashboards = dashboardFiles().map((file) => ({
  name: basename(file),
  dashboard: JSON.parse(read(file)) as Dashboard,
}));
const queries = (d: Dashboard): string[] =>
  allPanels(d.panels).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));

/** promtool's verdict on expressions, each as a recording rule of a throwaway rules file. */
function checkPromql(exprs: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'dashboards-promql-'));
  const rules = exprs.map((expr, n) => ({ record: `dashboard:query_${n}`, expr: asPromql(expr) }));
  writeFileSync(join(dir, 'queries.yml'), stringify({ groups: [{ name: 'dashboards', rules }] }));
  return runPromtool(['check', 'rules', join(dir, 'queries.yml')]);
}

describe('Grafana dashboards', () => {
  it('are the generator output (node deploy/tools/grafana-dashboards.mjs)', () => {
    const check = spawnSync(
      process.execPath,
      [join(REPO, 'deploy', 'tools', 'grafana-dashboards.mjs'), '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('cover the five areas, each under its own uid', () => {
    expect(dashboards.map((d) => d.name).sort()).toEqual([
      'deliveries.json',
      'edge.json',
      'queues-outbox.json',
      'runs.json',
      'services.json',
    ]);
    const uids = dashboards.map((d) => d.dashboard.uid);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it.each(dashboards.map((d) => [d.name, d.dashboard] as const))(
    '%s: schema 39+, ${datasource} variable, unique panel ids, every panel on the variable',
    (name, dashboard) => {
      expect(checkDashboard(name, dashboard)).toEqual([]);
      const usesService = queries(dashboard).some((q) => q.includes('$service'));
      const variables = (dashboard.templating?.list ?? []).map((v) => v.name);
      if (usesService) expect(variables).toContain('service');
    },
  );

  it('query valid PromQL', () => {
    const result = checkPromql(dashboards.flatMap((d) => queries(d.dashboard)));
    expect(result.status, result.output).toBe(0);
  });

  it('query only metrics that docs/operations.md describes', () => {
    const exprs = dashboards.flatMap((d) => queries(d.dashboard)).map(asPromql);
    expect(undocumented(exprs, documentedMetricNames(), new Set())).toEqual([]);
  });

  describe('catches', () => {
    const edge = () => clone(dashboards.find((d) => d.name === 'edge.json')!.dashboard);
    it('a repeated panel id, a hard-coded datasource, no datasource variable, an old schema', () => {
      const d = edge();
      const panels = allPanels(d.panels).filter((p) => p.type !== 'row');
      panels[1]!.id = panels[0]!.id;
      panels[2]!.datasource = { type: 'prometheus', uid: 'P1809F7CD0C75ACF3' };
      d.templating!.list = d.templating!.list!.filter((v) => v.name !== 'datasource');
      d.schemaVersion = 27;
      const problems = checkDashboard('edge.json', d).join('\n');
      expect(problems).toMatch(/panel ids missing or repeated/);
      expect(problems).toMatch(/does not query the \$\{datasource\} variable/);
      expect(problems).toMatch(/has no \$\{datasource\} variable/);
      expect(problems).toMatch(/schemaVersion 27 < 39/);
    });
    it('a query that is not PromQL', () => {
      expect(
        checkPromql(['sum(rate(http_server_request_duration_seconds_count[$__rate_interval])']).status,
      ).not.toBe(0);
    });
  });
});
