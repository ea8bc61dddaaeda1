import type ivm from 'isolated-vm';
import type { IsolateLease } from './isolate-source.js';
import type { RunLimits } from './limits.js';
import type { CapturedLogs, LogLine } from './result.js';

const LEVELS = new Set(['log', 'info', 'warn', 'error']);

/**
 * Copies the captured console lines out of the isolate. The guest's buffer is already capped, but
 * user code could have tampered with it, so the host applies the caps again on what it receives.
 */
export async function readLogs(lease: IsolateLease, limits: RunLimits): Promise<CapturedLogs> {
  let raw: unknown;
  try {
    const reader = lease.context.evalSync('__sandbox.logs', { reference: true }) as ivm.Reference<
      () => string
    >;
    raw = reader.applySync(undefined, [], { result: { copy: true }, timeout: 500 });
  } catch {
    return { lines: [], truncated: true };
  }
  return capLogs(raw, limits);
}

function capLogs(raw: unknown, limits: RunLimits): CapturedLogs {
  let parsed: { lines?: unknown; truncated?: unknown };
  try {
    parsed = typeof raw === 'string' ? (JSON.parse(raw) as typeof parsed) : {};
  } catch {
    return { lines: [], truncated: true };
  }
  const lines: LogLine[] = [];
  let truncated = parsed.truncated === true;
  let bytes = 0;
  for (const line of Array.isArray(parsed.lines) ? (parsed.lines as unknown[]) : []) {
    const candidate = line as Partial<LogLine> | null;
    if (!candidate || typeof candidate.text !== 'string' || !LEVELS.has(String(candidate.level))) continue;
    bytes += Buffer.byteLength(candidate.text, 'utf8');
    if (lines.length >= limits.maxLogLines || bytes > limits.maxLogBytes) {
      truncated = true;
      break;
    }
    lines.push({ level: candidate.level as LogLine['level'], text: candidate.text });
  }
  return { lines, truncated };
}
