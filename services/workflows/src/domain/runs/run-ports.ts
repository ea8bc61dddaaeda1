/**
 * What the run use cases need from the process's LISTEN on `workflow_run_events`: to be woken when
 * a run may have new events. Implemented by events/run-events-listener.ts and handed over by the
 * composition root (runs-area.ts), so domain code never imports an event entry point.
 */
export interface RunEventsFeed {
  /** Calls `wake` whenever the run may have new events (a hint: re-read the log); returns the unfollow. */
  follow(runId: string, wake: () => void): () => void;
}
