import type { NodeModule } from '../../src/domain/runs/engine/contract.js';
import { planRun } from '../../src/domain/runs/engine/plan.js';
import { createNodeModules } from '../../src/domain/runs/nodes/index.js';

/** A test node: records each call, may wait, stream, fail or ignore its signal (`data`). */
export function probe() {
  const calls: { nodeId: string; key: string }[] = [];
  const module: NodeModule = {
    type: 'probe',
    check: () => [],
    timeoutMs: (n) => (typeof n.data.timeout_ms === 'number' ? n.data.timeout_ms : undefined),
    async execute({ node: n, idempotencyKey, signal, emitText, variables }) {
      calls.push({ nodeId: n.id, key: idempotencyKey });
      for (const chunk of (n.data.chunks as string[] | undefined) ?? []) await emitText(chunk);
      const wait = Number(n.data.wait_ms ?? 0);
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          if (n.data.ignore_signal !== true)
            signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
        });
      }
      if (n.data.throw) throw new Error(String(n.data.throw));
      return {
        status: 'success',
        outputs: { seen: variables.inputs, id: n.id },
        tokens: Number(n.data.tokens ?? 0),
      };
    },
  };
  return { calls, module };
}

export function setup(defn: unknown) {
  const p = probe();
  const modules = new Map([...createNodeModules({}), ['probe', p.module]]);
  return { plan: planRun(defn, modules), modules, calls: p.calls };
}

export const signal = () => new AbortController().signal;

/**
 * Calls `act` the moment node `nodeId` starts executing (it is then in flight): a test aborts or
 * drains at that known point instead of after a guessed delay.
 */
export function whenNodeStarts(modules: Map<string, NodeModule>, nodeId: string, act: () => void): void {
  const probeModule = modules.get('probe')!;
  const execute = probeModule.execute.bind(probeModule);
  probeModule.execute = (context) => {
    if (context.node.id === nodeId) act();
    return execute(context);
  };
}
