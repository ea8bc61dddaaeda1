/**
 * Streams generated text to the run's journal in order, one write at a time. Text that arrives
 * while a write is in flight is joined into the next write, so a fast model costs fewer writes
 * (and `text_chunk` events) than it sends deltas, and a slow journal slows nothing upstream. The
 * first failed write (a lost lease) stops the rest; `flushed()` rethrows it.
 */
export class TextBatcher {
  private pending = '';
  private running: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly emit: (chunk: string) => Promise<void>,
    private readonly onFailure: () => void = () => undefined,
  ) {}

  push(text: string): void {
    if (this.failure || text === '') return;
    this.pending += text;
    this.running ??= this.drain();
  }

  /** Resolves once everything pushed so far is written; rejects with the first failed write. */
  async flushed(): Promise<void> {
    while (this.running) await this.running;
    if (this.failure) throw this.failure.error;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending !== '') {
        const chunk = this.pending;
        this.pending = '';
        await this.emit(chunk);
      }
    } catch (error) {
      this.failure = { error };
      this.pending = '';
      this.onFailure();
    } finally {
      this.running = undefined;
    }
  }
}
