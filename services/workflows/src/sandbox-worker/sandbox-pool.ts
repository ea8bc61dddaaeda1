import { createProcessSandbox, type RunResult, type Sandbox } from '@platform/sandbox';
import type { RunCodeRequest } from '@platform/sandbox';

/**
 * `size` sandboxes, each a child process that runs one task at a time (createProcessSandbox): a
 * task that kills its child (a V8 fatal OOM) costs that child only, and the next task forks a new
 * one. Tasks beyond `size` wait for a free child, in arrival order. Not p-limit: the pool hands
 * each task a particular child (a resource), not only a turn.
 */
export class SandboxPool {
  private readonly free: Sandbox[];
  private readonly waiting: ((sandbox: Sandbox) => void)[] = [];
  private readonly all: Sandbox[];

  constructor(size: number, create: () => Sandbox = createProcessSandbox) {
    this.all = Array.from({ length: size }, create);
    this.free = [...this.all];
  }

  /** Starts every child with a trivial task, so the first real one does not pay the fork. */
  async warm(): Promise<void> {
    await Promise.all(
      this.all.map((sandbox) =>
        sandbox.runCode({ code: 'function main() { return {} }', inputs: {} }).catch(() => undefined),
      ),
    );
  }

  async run(request: RunCodeRequest): Promise<RunResult> {
    const sandbox = this.free.pop() ?? (await new Promise<Sandbox>((give) => this.waiting.push(give)));
    try {
      return await sandbox.runCode(request);
    } finally {
      const next = this.waiting.shift();
      if (next) next(sandbox);
      else this.free.push(sandbox);
    }
  }

  close(): void {
    for (const sandbox of this.all) sandbox.close();
  }
}
