// Reading the metric names out of PromQL (alert rules, dashboard queries) to hold them against the
// metric tables of docs/operations.md. A light lexer, not a parser: strings, label matchers,
// grouping clauses, ranges and Grafana variables are dropped, and what is left that is neither a
// function call nor a keyword is a metric name.
import { read } from './parse.js';

const KEYWORDS = new Set(['and', 'or', 'unless', 'offset', 'bool', 'by', 'without', 'on', 'ignoring']);

export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  // A whole identifier, then whether a call's parenthesis follows it (a function, not a metric).
  const names = [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(\s*\()?/g)]
    .filter((m) => m[2] === undefined)
    .map((m) => m[1]!);
  return [...new Set(names.filter((n) => !KEYWORDS.has(n)))];
}

/** A histogram's or summary's series name → the metric the docs describe. */
export const baseName = (name: string): string => name.replace(/_(bucket|count|sum)$/, '');

/** Names in the first column of docs/operations.md's metric tables: "| `name` | type | …". */
export function documentedMetrics(docsPath: string): Set<string> {
  const names = new Set<string>();
  for (const line of read(docsPath).split('\n')) {
    const m = /^\|\s*`([a-zA-Z_:][\w:]*)`\s*\|/.exec(line);
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

/** Process defaults no table lists: Prometheus' `up`, prom-client's Node and process metrics. */
export const isDefaultMetric = (name: string): boolean =>
  name === 'up' || name.startsWith('nodejs_') || name.startsWith('process_');

/** The metric names of `exprs` that are neither documented, a default, nor a recording rule. */
export function undocumented(exprs: string[], documented: Set<string>, recorded: Set<string>): string[] {
  const names = exprs.flatMap(metricNames);
  return [
    ...new Set(names.filter((n) => !recorded.has(n) && !isDefaultMetric(n) && !documented.has(baseName(n)))),
  ].sort();
}
