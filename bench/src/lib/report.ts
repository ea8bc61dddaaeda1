import type { LatencyReport } from './open-loop.js';

export function tableHeader(): string {
  return '| measurement | target rate | achieved req/s | p50 ms | p99 ms | p99.9 ms | errors |\n|---|---|---|---|---|---|---|';
}

export function tableRow(name: string, rate: number, report: LatencyReport): string {
  return `| ${name} | ${rate} | ${report.throughput} | ${report.p50.toFixed(3)} | ${report.p99.toFixed(3)} | ${report.p999.toFixed(3)} | ${report.errors} |`;
}
