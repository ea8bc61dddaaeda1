/** Why a run failed: a closed set, so the code node can name it in the run record. */
export const FAILURE_REASONS = [
  'syntax_error',
  'missing_main',
  'thrown',
  'timeout',
  'memory_limit',
  'not_an_object',
  'not_serializable',
  'output_too_large',
  'input_too_large',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}

export interface CapturedLogs {
  lines: LogLine[];
  /** True when the byte or line cap cut the output (the lines kept are the first ones). */
  truncated: boolean;
}

export interface RunSuccess {
  ok: true;
  output: JsonObject;
  logs: CapturedLogs;
  durationMs: number;
}

export interface RunFailure {
  ok: false;
  reason: FailureReason;
  /** For the user: the error's name and message, never a host stack frame. */
  message: string;
  logs: CapturedLogs;
  durationMs: number;
}

export type RunResult = RunSuccess | RunFailure;

export const NO_LOGS: CapturedLogs = Object.freeze({ lines: [], truncated: false }) as CapturedLogs;
