/**
 * What one run may hold (docs/security.md "Workflow runs: what one run may hold"). The service
 * sets them from its config (RUN_MAX_* variables); the engine and the nodes only read them.
 */
export interface RunLimits {
  /** UTF-8 bytes of one rendered template value (a template node's text, an end output, a URL…). */
  maxValueBytes: number;
  /** Bytes of one node's outputs as JSON, and of the text one node streams. */
  maxNodeOutputBytes: number;
  /** Bytes one run holds: its inputs, every node's outputs and the text its nodes stream. */
  maxRunBytes: number;
  /** Bytes of an http_request node's response body; the download is cut past it. */
  maxHttpResponseBytes: number;
  /** Times a node in flight when its worker stopped is started again; then the run fails. */
  maxNodeResumes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_RUN_LIMITS: RunLimits = {
  maxValueBytes: MIB,
  maxNodeOutputBytes: 2 * MIB,
  maxRunBytes: 8 * MIB,
  maxHttpResponseBytes: 2 * MIB,
  maxNodeResumes: 3,
};

/** Which bound was passed: the node fails with `output_too_large` naming it. */
export type SizeScope = 'value' | 'node_output' | 'run';

/**
 * Thrown where bytes are produced (rendering, streaming, a node's outputs) as soon as a bound is
 * passed, so the oversize value is never built in full; `runNode` turns it into a node failure.
 */
export class OutputTooLargeError extends Error {
  constructor(
    readonly scope: SizeScope,
    readonly limit: number,
  ) {
    super(`${SCOPE_TEXT[scope]} would pass the limit of ${limit} bytes`);
    this.name = 'OutputTooLargeError';
  }
}

const SCOPE_TEXT: Record<SizeScope, string> = {
  value: 'a rendered value',
  node_output: "the node's output",
  run: "the run's inputs, outputs and streamed text",
};

/** UTF-8 bytes of a value as the journal stores it (JSON). */
export function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * A running count of bytes against one bound: `charge` throws `OutputTooLargeError` before the
 * total passes it (the caller has not kept the bytes yet); `add` counts what is already held (a
 * resumed run's recorded outputs) without refusing it.
 */
export class ByteMeter {
  private used = 0;

  constructor(
    readonly scope: SizeScope,
    readonly limit: number,
  ) {}

  charge(bytes: number): void {
    if (this.used + bytes > this.limit) throw new OutputTooLargeError(this.scope, this.limit);
    this.used += bytes;
  }

  add(bytes: number): void {
    this.used += bytes;
  }
}
