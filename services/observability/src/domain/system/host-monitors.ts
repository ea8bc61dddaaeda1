import { cpus, arch, freemem, totalmem } from 'node:os';
import { readFile, statfs } from 'node:fs/promises';
import { cpuStatus, diskStatus, memoryStatus, round2, type MonitorStatus } from './thresholds.js';

export interface CpuReading {
  status: MonitorStatus;
  usage_percent: number;
  cores: number;
  architecture: string;
}

export interface UsageReading {
  status: MonitorStatus;
  usage_percent: number;
  used_bytes: number;
  total_bytes: number;
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** Busy share of all cores over a short sample (the load average lags by minutes). */
export async function readCpu(sampleMs = 200): Promise<CpuReading> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = cpuTimes();
  const total = after.total - before.total;
  const usage = total > 0 ? round2((1 - (after.idle - before.idle) / total) * 100) : 0;
  return { status: cpuStatus(usage), usage_percent: usage, cores: cpus().length, architecture: arch() };
}

/** Used = total − available (`MemAvailable`: page cache the kernel can drop is not "used"). */
export async function readMemory(): Promise<UsageReading> {
  const total = totalmem();
  let available = freemem();
  try {
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(await readFile('/proc/meminfo', 'utf8'));
    if (match) available = Number(match[1]) * 1024;
  } catch {
    // Not Linux: the free figure is the best there is.
  }
  const used = Math.max(0, total - available);
  const usage = total > 0 ? round2((used / total) * 100) : 0;
  return { status: memoryStatus(usage), usage_percent: usage, used_bytes: used, total_bytes: total };
}

/** As `df` counts it: used over what unprivileged writers can reach (blocks reserved for root excluded). */
export async function readDisk(path: string): Promise<UsageReading> {
  const fs = await statfs(path);
  const total = fs.blocks * fs.bsize;
  const used = (fs.blocks - fs.bfree) * fs.bsize;
  const reachable = used + fs.bavail * fs.bsize;
  const usage = reachable > 0 ? round2((used / reachable) * 100) : 0;
  return { status: diskStatus(usage), usage_percent: usage, used_bytes: used, total_bytes: total };
}
