/**
 * isolated-vm requires Node ≥ 20 to run with `--no-node-snapshot`: without it, some isolate
 * memory overruns (e.g. `new Array(2 ** 30).fill(0)`) abort the whole host process instead of
 * disposing the isolate. The process that runs the sandbox must start with the flag (on the command
 * line or in NODE_OPTIONS); this tells it whether it did.
 */
export function nodeSnapshotDisabled(): boolean {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return flags.includes('--no-node-snapshot');
}
