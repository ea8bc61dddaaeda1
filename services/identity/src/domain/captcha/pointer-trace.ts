import type { OptionBox } from './captcha-contract.js';

export type { OptionBox } from './captcha-contract.js';

/**
 * The rule that tells a human click from a scripted one (documented in docs/identity.md,
 * "Captcha trace rule"). Pure: the inputs are the click request, the server-measured age of the
 * challenge and where the target option was drawn.
 */
export interface PointerSample {
  x: number;
  y: number;
  t: number;
  event: string;
}

export const TRACE_RULE = {
  /** No human reads the prompt, finds the option and clicks in under 300 ms. */
  minElapsedMs: 300,
  /** The challenge lives 300 s; a longer claim is impossible. */
  maxElapsedMs: 300_000,
  /** A claimed duration may exceed the server-measured one by this much (none is legitimate). */
  elapsedSlackMs: 1_000,
  /** A non-empty trace needs this many samples to say anything. */
  minPoints: 3,
  /** All samples within this distance of one straight line: a scripted linear move. */
  straightLinePx: 1,
  /** Coefficient of variation of step speeds below this with equal steps: constant velocity. */
  uniformSpeedCv: 0.01,
} as const;

/** Largest distance of any sample from the line through the first and last samples. */
function maxDeviationFromChord(points: readonly PointerSample[]): number {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const dx = last.x - first.x;
  const dy = last.y - first.y;
  const length = Math.hypot(dx, dy);
  let max = 0;
  for (const p of points) {
    const distance =
      length === 0
        ? Math.hypot(p.x - first.x, p.y - first.y)
        : Math.abs(dy * (p.x - first.x) - dx * (p.y - first.y)) / length;
    max = Math.max(max, distance);
  }
  return max;
}

/** True when every step covers the same distance in the same time (a tweening script). */
function isConstantVelocity(points: readonly PointerSample[]): boolean {
  if (points.length < 4) return false;
  const speeds: number[] = [];
  const intervals: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const dt = points[i]!.t - points[i - 1]!.t;
    if (dt <= 0) return false;
    intervals.push(dt);
    speeds.push(Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y) / dt);
  }
  const mean = speeds.reduce((a, b) => a + b, 0) / speeds.length;
  if (mean === 0) return false;
  const variance = speeds.reduce((a, s) => a + (s - mean) ** 2, 0) / speeds.length;
  const sameIntervals = intervals.every((dt) => Math.abs(dt - intervals[0]!) < 1);
  return sameIntervals && Math.sqrt(variance) / mean < TRACE_RULE.uniformSpeedCv;
}

/** The reason a trace looks scripted, or null when it looks human. */
export function scriptedTraceReason(
  elapsedMs: number,
  pointer: readonly PointerSample[],
  serverAgeMs: number,
  target: OptionBox,
): string | null {
  if (elapsedMs < TRACE_RULE.minElapsedMs) return 'too_fast';
  if (elapsedMs > TRACE_RULE.maxElapsedMs) return 'too_slow';
  if (elapsedMs > serverAgeMs + TRACE_RULE.elapsedSlackMs) return 'elapsed_exceeds_challenge_age';
  if (serverAgeMs < TRACE_RULE.minElapsedMs) return 'too_fast';
  // A click is made by a pointer that went to the option (a tap sends down/up samples too).
  if (pointer.length === 0) return 'no_pointer_trace';
  if (pointer.length < TRACE_RULE.minPoints) return 'too_few_points';
  for (let i = 1; i < pointer.length; i++) {
    if (pointer[i]!.t < pointer[i - 1]!.t) return 'time_goes_backwards';
  }
  const span = pointer[pointer.length - 1]!.t - pointer[0]!.t;
  if (span <= 0) return 'no_time_passes';
  if (span > elapsedMs + TRACE_RULE.elapsedSlackMs) return 'trace_longer_than_elapsed';
  if (maxDeviationFromChord(pointer) < TRACE_RULE.straightLinePx) return 'straight_line';
  if (isConstantVelocity(pointer)) return 'constant_velocity';
  const last = pointer[pointer.length - 1]!;
  if (last.x < target.x0 || last.x > target.x1 || last.y < target.y0 || last.y > target.y1) {
    return 'trace_misses_option';
  }
  return null;
}
