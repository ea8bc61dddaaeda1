import type { RunPlan } from './engine/plan.js';

/** A published snapshot as StartRun runs it: the stored text copied into the run, and its plan. */
export interface PlannedSnapshot {
  definitionText: string;
  version: number;
  plan: RunPlan;
}

/**
 * Published snapshots already planned by this process, by `<workflow_id>:<version>`. A snapshot
 * is never changed once written (a publish or restore makes a new version; only deleting the
 * workflow removes it, and StartRun loads the workflow first), so an entry never goes stale:
 * production runs of a workflow skip the snapshot read and re-planning. Bounded by the bytes of
 * definition text it holds (least recently used first out).
 */
export class PlanCache {
  private readonly entries = new Map<string, PlannedSnapshot>();
  private bytes = 0;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  get(workflowId: string, version: number): PlannedSnapshot | undefined {
    const key = `${workflowId}:${version}`;
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(workflowId: string, entry: PlannedSnapshot): void {
    const size = entry.definitionText.length;
    if (size > this.maxBytes) return;
    const key = `${workflowId}:${entry.version}`;
    const previous = this.entries.get(key);
    if (previous) this.bytes -= previous.definitionText.length;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.definitionText.length;
    }
  }
}
