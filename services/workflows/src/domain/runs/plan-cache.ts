import { LRUCache } from 'lru-cache';
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
  private readonly entries: LRUCache<string, PlannedSnapshot>;

  constructor(maxBytes = 16 * 1024 * 1024) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      // lru-cache refuses a size of 0; a snapshot bigger than maxBytes is not kept at all.
      sizeCalculation: (entry) => Math.max(1, entry.definitionText.length),
    });
  }

  get(workflowId: string, version: number): PlannedSnapshot | undefined {
    return this.entries.get(`${workflowId}:${version}`);
  }

  set(workflowId: string, entry: PlannedSnapshot): void {
    this.entries.set(`${workflowId}:${entry.version}`, entry);
  }
}
